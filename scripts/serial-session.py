#!/usr/bin/python3
"""serial-session.py - drive a guest's serial console over qemu-run.sh --serial-socket.

Usage: serial-session.py SOCKET [--timeout S] [--transcript FILE] STEP...
  --expect RE   wait until the console output since the last match matches RE (Python regex)
  --send TEXT   send TEXT, with Python escapes decoded ('\\x0f' is Ctrl-O, '\\x01b' is Ctrl-A B)
  --sleep S     wait S seconds (reading meanwhile)
  --eof         wait for QEMU to close the socket (the guest powered off); fails if it does not
After the last step the client stays connected until QEMU closes the socket (or --timeout):
closing at once could make QEMU drop input it has not read yet.
Connects as soon as the socket exists (up to --timeout). Each --expect and --eof waits at most
--timeout seconds (default 30). Exits 0 when every step succeeded, 1 otherwise, naming the step
that failed. The console text is not printed: qemu-run.sh --log records it, and --transcript
FILE saves what this client received (QEMU's log file can repeat a character now and then when
a socket write is retried; the socket stream itself is right).
"""
import os
import re
import socket
import sys
import time


# What the client received, and where to save it (--transcript), whatever run() returns.
STATE = {"transcript": None, "text": []}


def main(argv):
    rc = run(argv)
    if STATE["transcript"]:
        with open(STATE["transcript"], "w") as f:
            f.write("".join(STATE["text"]))
    return rc


def run(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stdout.write(__doc__)
        return 0 if len(argv) >= 2 else 64
    path, args = argv[1], argv[2:]
    timeout = 30.0
    while args[:1] in (["--timeout"], ["--transcript"]):
        if args[0] == "--timeout":
            timeout = float(args[1])
        else:
            STATE["transcript"] = args[1]
        args = args[2:]

    deadline = time.time() + timeout
    sock = socket.socket(socket.AF_UNIX)
    while True:
        try:
            sock.connect(path)
            break
        except OSError:
            if time.time() > deadline:
                print(f"serial-session: cannot connect to {path}")
                return 1
            time.sleep(0.05)
    sock.settimeout(0.1)
    buf = ""
    closed = False

    def read_until(pred, secs):
        nonlocal buf, closed
        end = time.time() + secs
        while not pred():
            if closed or time.time() > end:
                return pred()
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                closed = True
                continue
            text = data.decode(errors="replace").replace("\r", "")
            buf += text
            STATE["text"].append(text)
        return True

    while args:
        step, args = args[0], args[1:]
        if step == "--eof":
            if not read_until(lambda: closed, timeout):
                print("serial-session: the guest did not end")
                return 1
            continue
        if not args:
            print(f"serial-session: {step} needs a value")
            return 64
        val, args = args[0], args[1:]
        if step == "--expect":
            rx = re.compile(val, re.M)
            m = None

            def found():
                nonlocal m
                m = rx.search(buf)
                return m is not None
            if not read_until(found, timeout):
                print(f"serial-session: no match for {val!r} in {timeout:.0f} s; last output:")
                print(buf[-2000:])
                return 1
            buf = buf[m.end():]
        elif step == "--send":
            text = val.encode().decode("unicode_escape").encode("latin-1")
            sock.sendall(text)
        elif step == "--sleep":
            read_until(lambda: False, float(val))
        else:
            print(f"serial-session: unknown step {step}")
            return 64
    # Stay connected until QEMU ends: a client that closes at once can make QEMU drop input it
    # has not read yet. Not reaching the end here is the test's business (QEMU's exit status).
    read_until(lambda: closed, timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
