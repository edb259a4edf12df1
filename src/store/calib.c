#include "store/calib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/fs.h"

void calib_default_path(char *buf, size_t len)
{
	fs_state_path("calibration", buf, len);
}

static int parse_line(const char *line, struct calib_entry *e)
{
	int used = 0, ok;
	long long when;

	memset(e, 0, sizeof(*e));
	if (sscanf(line, "%23s %u %lf %d %lld %95s%n", e->port_type, &e->size, &e->pps, &ok, &when,
		   e->kernel, &used) != 6)
		return -EINVAL;
	if (e->size < 1 || e->size > 65535 || !(e->pps > 0) || (ok != 0 && ok != 1))
		return -EINVAL;
	e->rx_ok = ok;
	e->when = when;
	/* optional (older files lack it): where the tester's CPUs were */
	if (sscanf(line + used, " line=%23[0-9-]:%lf", e->line_cpus, &e->line_ns) != 2 || !(e->line_ns > 0)) {
		e->line_cpus[0] = '\0';
		e->line_ns = 0;
	}
	return 0;
}

int calib_check(const char *path, char *err, size_t errlen)
{
	struct calib_entry e;
	struct stat sb;
	int rc;

	if (stat(path, &sb)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	/* every line read as an entry; size 0 matches none */
	rc = calib_lookup(path, "", 0, &e, err, errlen);
	if (rc == -ENOENT)
		return 0;
	if (rc != -EINVAL)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	return rc;
}

int calib_lookup(const char *path, const char *port_type, unsigned int size,
		 struct calib_entry *e, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int lineno = 0, rc = -ENOENT;

	if (!f)
		return errno == ENOENT ? -ENOENT : -errno;
	while (fgets(line, sizeof(line), f)) {
		struct calib_entry c;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (parse_line(line, &c)) {
			snprintf(err, errlen, "%s:%d: not a wirerate calibration line (give another file, or delete it)",
				 path, lineno);
			rc = -EINVAL;
			break;
		}
		if (!strcmp(c.port_type, port_type) && c.size == size) {
			*e = c;
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

int calib_store(const char *path, const struct calib_entry *e, char *err, size_t errlen)
{
	char line[512];
	struct fs_out o;
	FILE *in, *out;
	int rc = 0;

	/* never over a file that is not one of ours */
	if ((rc = calib_check(path, err, errlen)))
		return rc;
	if ((rc = fs_mkdir_parents(path))) {
		snprintf(err, errlen, "cannot create the directory of %s: %s", path, strerror(-rc));
		return rc;
	}
	if ((rc = fs_out_open(&o, path))) {
		snprintf(err, errlen, "cannot write next to %s: %s", path, strerror(-rc));
		return rc;
	}
	out = o.f;
	fprintf(out, "# wirerate calibration: port-type size frames/s receiver-ok time kernel [line=cpus:ns]\n");
	in = fopen(path, "re");
	if (in) {
		while (fgets(line, sizeof(line), in)) {
			struct calib_entry c;

			if (line[0] == '#' || parse_line(line, &c))
				continue;
			if (!strcmp(c.port_type, e->port_type) && c.size == e->size)
				continue;
			fputs(line, out);
		}
		fclose(in);
	}
	fprintf(out, "%s %u %.1f %d %lld %s", e->port_type, e->size, e->pps, e->rx_ok ? 1 : 0,
		(long long)e->when, e->kernel[0] ? e->kernel : "-");
	if (e->line_cpus[0] && e->line_ns > 0)
		fprintf(out, " line=%s:%.1f", e->line_cpus, e->line_ns);
	fputc('\n', out);
	if ((rc = fs_out_close(&o, true)))
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}
