/* Placeholder until the HTML+SVG writer lands (being written now). */
#include <errno.h>

#include "store/report_model.h"

int report_html_write(const struct report_model *m, FILE *f, char *err, size_t errlen)
{
	(void)m;
	(void)f;
	snprintf(err, errlen, "the HTML report is not built yet");
	return -ENOSYS;
}
