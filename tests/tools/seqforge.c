/* Test helper: forge one test frame far ahead in its stream. Waits on IF
 * (AF_PACKET, frames in either direction) for a valid tagged test frame of
 * a trial (not a learning frame), then sends a copy of it out of IF with
 * its sequence number moved 2^47 - 1 ahead (the farthest the analyzer's
 * 48-bit unwrap takes as ahead), the tag's check and the UDP checksum
 * fixed, so that the analyzer takes it for its own. Prints the forged
 * frame's stream and sequence number. Bounded: gives up after TIMEOUT
 * seconds (exit 1). Usage: seqforge IF TIMEOUT. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "core/frame.h"

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	uint8_t buf[10000];
	time_t end;
	int fd;

	if (argc != 3 || atoi(argv[2]) < 1 || atoi(argv[2]) > 60) {
		fprintf(stderr, "usage: seqforge IF TIMEOUT(1..60 s)\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[2]);
	if (!(sll.sll_ifindex = (int)if_nametoindex(argv[1]))) {
		fprintf(stderr, "seqforge: no interface %s\n", argv[1]);
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("seqforge: socket");
		return 1;
	}
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct frame_info fi;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		if ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) <= 0)
			continue;
		if (frame_parse(buf, (size_t)n, &fi) != FRAME_OK || (fi.tag.trial & 0x8000))
			continue;
		fi.tag.seq = (fi.tag.seq + (1ULL << 47) - 1) & ((1ULL << 48) - 1);
		frame_tag_write(buf + fi.lay.payload_off, &fi.tag);
		if (frame_parse(buf, (size_t)n, &fi) != FRAME_OK) {
			fprintf(stderr, "seqforge: the forged frame does not parse\n");
			return 1;
		}
		if (send(fd, buf, (size_t)n, 0) != n) {
			perror("seqforge: send");
			return 1;
		}
		printf("stream %u seq %llu\n", fi.tag.stream, (unsigned long long)fi.tag.seq);
		return 0;
	}
	fprintf(stderr, "seqforge: no test frame on %s in %s s\n", argv[1], argv[2]);
	return 1;
}
