/* Test helper: send COUNT UDP datagrams of LEN bytes to ADDR:PORT as fast as
 * the socket allows, with a large send buffer so that the sender is not
 * throttled by the receiver; bounded in count and in time (10 s). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char buf[1500] = { 0 };
	long count, len, sent = 0;
	int fd, big = 64 << 20;
	time_t end = time(NULL) + 10;

	if (argc != 5 || inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1) {
		fprintf(stderr, "usage: udpblast ADDR PORT COUNT LEN\n");
		return 2;
	}
	sa.sin_port = htons((unsigned short)atoi(argv[2]));
	count = atol(argv[3]);
	len = atol(argv[4]);
	if (count < 1 || count > 10000000 || len < 1 || len > (long)sizeof(buf)) {
		fprintf(stderr, "udpblast: COUNT 1..10000000, LEN 1..1500\n");
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big)) < 0) {
		perror("udpblast: socket");
		return 1;
	}
	while (sent < count && time(NULL) < end) {
		if (sendto(fd, buf, (size_t)len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			if (errno == ENOBUFS || errno == EAGAIN)
				continue;
			perror("udpblast: sendto");
			return 1;
		}
		sent++;
	}
	printf("%ld\n", sent);
	return 0;
}
