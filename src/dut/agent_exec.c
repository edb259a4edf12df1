/* The exec op; see agent_exec.h. */
#include "dut/agent_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "dut/agent_proto.h"
#include "os/clock.h"

json_object *agent_exec_run(json_object *req)
{
	json_object *av, *o;
	const char *argv[AGENTEXEC_ARGS_MAX + 1];
	uint64_t timeout = agent_proto_u64(req, "timeout_ms"), deadline;
	char *out = NULL;
	size_t have = 0, n;
	bool truncated = false, timed_out = false;
	int pfd[2], status = 0;
	pid_t pid;

	if (!json_object_object_get_ex(req, "argv", &av) || !json_object_is_type(av, json_type_array) ||
	    !(n = json_object_array_length(av)) || n > AGENTEXEC_ARGS_MAX)
		return agent_proto_error("exec: argv must be 1 to 64 strings");
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(av, i);

		if (!json_object_is_type(s, json_type_string))
			return agent_proto_error("exec: argv must be strings");
		argv[i] = json_object_get_string(s);
	}
	argv[n] = NULL;
	if (!timeout || timeout > AGENTEXEC_TIMEOUT_MAX_MS)
		timeout = AGENTEXEC_TIMEOUT_MAX_MS;
	if (!(out = malloc(AGENTEXEC_OUTPUT_MAX + 1)))
		return agent_proto_error("exec: out of memory");
	if (pipe2(pfd, O_CLOEXEC)) {
		free(out);
		return agent_proto_error("exec: no pipe");
	}
	if ((pid = fork()) < 0) {
		close(pfd[0]);
		close(pfd[1]);
		free(out);
		return agent_proto_error("exec: cannot fork");
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (in >= 0)
			dup2(in, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	deadline = clock_mono_ms() + timeout;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		uint64_t now = clock_mono_ms();
		char tmp[4096];
		ssize_t r;

		if (now >= deadline) {
			kill(-pid, SIGKILL);
			timed_out = true;
			break;
		}
		if (poll(&p, 1, (int)(deadline - now)) <= 0)
			continue;
		if ((r = read(pfd[0], tmp, sizeof(tmp))) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		/* keep the first MAX bytes; read on so the command is not blocked */
		if (have < AGENTEXEC_OUTPUT_MAX) {
			size_t k = (size_t)r < AGENTEXEC_OUTPUT_MAX - have ? (size_t)r : AGENTEXEC_OUTPUT_MAX - have;

			memcpy(out + have, tmp, k);
			have += k;
			truncated |= k < (size_t)r;
		} else {
			truncated = true;
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	out[have] = '\0';
	o = json_object_new_object();
	json_object_object_add(o, "ok", json_object_new_boolean(1));
	json_object_object_add(o, "status", json_object_new_int(WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
								 WEXITSTATUS(status)));
	json_object_object_add(o, "output", json_object_new_string_len(out, (int)have));
	json_object_object_add(o, "truncated", json_object_new_boolean(truncated));
	json_object_object_add(o, "timed_out", json_object_new_boolean(timed_out));
	free(out);
	return o;
}
