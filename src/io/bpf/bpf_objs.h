/* The BPF objects built from src/io/bpf/ and embedded by the build. */
#ifndef WR_IO_BPF_OBJS_H
#define WR_IO_BPF_OBJS_H

#include <stddef.h>

extern const unsigned char wr_bpf_xdpgen[];	/* the live-frames generator */
extern const size_t wr_bpf_xdpgen_len;
extern const unsigned char wr_bpf_xsk[];	/* test frames to an AF_XDP socket */
extern const size_t wr_bpf_xsk_len;
extern const unsigned char wr_bpf_xsk_nometa[];	/* the same, without the receive time */
extern const size_t wr_bpf_xsk_nometa_len;
extern const unsigned char wr_bpf_count[];	/* the analyzer inside XDP */
extern const size_t wr_bpf_count_len;
extern const unsigned char wr_bpf_pass[];	/* the lab DUT's ingress: XDP_PASS */
extern const size_t wr_bpf_pass_len;
extern const unsigned char wr_bpf_reflect[];	/* pair --reflect: test frames back out (XDP_TX) */
extern const size_t wr_bpf_reflect_len;

#endif
