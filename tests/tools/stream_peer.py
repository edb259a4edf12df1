#!/usr/bin/env python3
"""Test helper for tests/netns/stream_hostile.sh: a stream client (or
server) that does what wirerate's own never would. Each mode is bounded in
time (every socket times out in 10 s) and in what it sends.

  stream_peer.py MODE ADDR PORT SRC [ARGS]
    idle N SECS     N connections from SRC that send nothing, held SECS
    hold N          N sessions of 60 s that then send nothing; print each answer; held 30 s at most
    slow            a request one byte every 0.3 s; print the answer and the time
    line TEXT       TEXT (Python escapes) as one line; print the answer
    count V THIRD   a version V session that sends exactly 10 datagrams while
                    1000 come from a socket of SRC's own and 1000 from THIRD;
                    print RESULT
    noend MS        a session of MS ms that never ends; print the time to the answer after OK
    badend TEXT     a session whose END is TEXT; print the answer
    server TEXT     listen on SRC:PORT, answer one request with TEXT
    result TEXT     listen on SRC:PORT, serve one session and answer its END with TEXT
"""
import socket
import sys
import time


def fam(a):
    return socket.AF_INET6 if ':' in a else socket.AF_INET


def conn(addr, port, src):
    s = socket.socket(fam(addr), socket.SOCK_STREAM)
    s.settimeout(10)
    s.bind((src, 0))
    s.connect((addr, port))
    return s


def readline(s):
    b = b''
    try:
        while not b.endswith(b'\n'):
            c = s.recv(1)
            if not c:
                break
            b += c
    except OSError as e:
        return 'error: ' + str(e)
    return b.decode('ascii', 'backslashreplace').rstrip('\n')


def udp(src):
    u = socket.socket(fam(src), socket.SOCK_DGRAM)
    u.bind((src, 0))
    return u


def serve_one(src, port):
    """Listen on SRC:PORT, say so, and return the one connection accepted."""
    ls = socket.socket(fam(src), socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.settimeout(10)
    ls.bind((src, port))
    ls.listen(1)
    print('listening', flush=True)
    c, _ = ls.accept()
    c.settimeout(10)
    return c


def main():
    mode, addr, port, src = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    a = sys.argv[5:]
    if mode == 'idle':
        socks = []
        for _ in range(int(a[0])):
            try:
                socks.append(conn(addr, port, src))
            except OSError:
                pass
        print('connected', len(socks), flush=True)
        time.sleep(min(float(a[1]), 30))
    elif mode == 'hold':
        socks = []
        for _ in range(int(a[0])):
            s = conn(addr, port, src)
            s.sendall(b'HELLO size=100 duration_ms=60000\n')
            print(readline(s), flush=True)
            socks.append(s)
        time.sleep(30)
    elif mode == 'slow':
        s, t = conn(addr, port, src), time.time()
        for ch in b'HELLO size=100 duration_ms=1000\n':
            try:
                s.send(bytes([ch]))
            except OSError:
                break
            time.sleep(0.3)
        print(readline(s), '%.1f' % (time.time() - t))
    elif mode == 'line':
        s = conn(addr, port, src)
        s.sendall(a[0].encode('latin-1').decode('unicode_escape').encode('latin-1') + b'\n')
        print(readline(s))
    elif mode == 'count':
        u = udp(src)
        s = conn(addr, port, src)
        hello = 'HELLO size=100 duration_ms=1000'
        if a[0] == '2':
            hello += ' version=2 port=%d' % u.getsockname()[1]
        s.sendall(hello.encode() + b'\n')
        ok = readline(s)
        dport = int(ok.split()[1].split('=')[1])
        u.connect((addr, dport))
        for _ in range(10):
            u.send(b'c' * 100)
        # the third parties: another socket on the client's own address
        # (version 2 only: a version 1 client's port is not known) and
        # another address
        for other in ([src] if a[0] == '2' else []) + [a[1]]:
            t = udp(other)
            for i in range(1000):
                t.sendto(b't' * 100, (addr, dport))
                if i % 100 == 99:
                    time.sleep(0.005)	# within the server's socket buffer
        time.sleep(0.2)
        s.sendall(b'END sent=10\n')
        print(readline(s))
    elif mode == 'noend':
        u = udp(src)
        s = conn(addr, port, src)
        s.settimeout(30)
        s.sendall(b'HELLO size=100 duration_ms=%d version=2 port=%d\n' % (int(a[0]), u.getsockname()[1]))
        print(readline(s), flush=True)
        t = time.time()
        print(readline(s), '%.1f' % (time.time() - t))
    elif mode == 'badend':
        u = udp(src)
        s = conn(addr, port, src)
        s.sendall(b'HELLO size=100 duration_ms=100 version=2 port=%d\n' % u.getsockname()[1])
        readline(s)
        s.sendall(a[0].encode('latin-1').decode('unicode_escape').encode('latin-1') + b'\n')
        print(readline(s))
    elif mode == 'server':
        c = serve_one(src, port)
        readline(c)
        c.sendall(a[0].encode('latin-1').decode('unicode_escape').encode('latin-1') + b'\n')
        time.sleep(0.2)
    elif mode == 'result':
        u = udp(src)
        c = serve_one(src, port)
        readline(c)
        c.sendall(b'OK port=%d rcvbuf=212992 version=2\n' % u.getsockname()[1])
        readline(c)
        c.sendall(a[0].encode() + b'\n')
        time.sleep(0.2)
    else:
        sys.exit('unknown mode ' + mode)


main()
