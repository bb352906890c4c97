#!/usr/bin/env python3
"""A scripted validation server on loopback for facecap's tests (standard library only).

    validation_server.py --script SCRIPT.json --record RECORD.jsonl [--port N] [--tls CERT KEY]
                         [--token TOKEN] [--preflight STEP-JSON]

Listens on 127.0.0.1 (port N, 0 = any free one), prints "PORT <n>" once it accepts connections, and
answers the k-th request with step k of the script (the last step repeats). Each request is appended to
RECORD as one JSON line (mode 0600: the report inside holds face landmarks): the time it arrived ("t",
seconds since the epoch, once its body was read), method, path, headers (lower-case names), and per
multipart part its name, filename, content type, size and SHA-256, plus the report part's text.

A step is a JSON object:
    {"status": 200, "json": {...}}              reply with that JSON body
    {"status": 503, "body": "text", "headers": {"Retry-After": "3"}}
    {"final": {...step...}}                     use the inner step when X-Facecap-Final: true was sent
    {"action": "stall", "sent": 20}             200 announcing 1000 bytes, send `sent`, then hang (60 s, or
                                                `"seconds": S`)
    {"action": "reset", "after": 4096}          read `after` body bytes, then reset the connection (RST)
    {"action": "close"}                         read the request, close without a reply
    {"action": "oversize", "bytes": N, "chunked": false}
                                                a 200 body of N bytes (chunked: without a length)
    {"action": "oversize", "bytes": N, "chunked": true, "drip": 0.25}
                                                the same in 64 KiB chunks, one every `drip` seconds; the
                                                bytes of body written before the client stopped reading are
                                                appended to RECORD.sent, one number a reply
    {"action": "announce", "bytes": N}          a 200 announcing N bytes, then no body at all (hang)

Any method is answered (a redirected POST may come back as a GET): GET, PUT and DELETE requests are recorded
and scripted like POST.

OPTIONS is facecap's pre-flight (README, "Validation server contract"): it is recorded but does not take a
step of the script. It is answered as a validation server should: 401 with a JSON message when --token is
given and the request's "Authorization: Bearer" is missing or another token (POSTs are held to the token the
same way), else 204 with "Allow: POST, OPTIONS"; --preflight replaces that answer with a step of its own
({"status": 404, "json": {...}}, {"status": 503, "body": "..."}, {"action": "close"}).
"""
import argparse
import email.parser
import email.policy
import hashlib
import json
import os
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Server(ThreadingHTTPServer):
    allow_reuse_address = True
    daemon_threads = True

    def server_bind(self):
        # A small receive buffer, so a client uploading a large photo is still sending when the
        # "reset" step resets the connection.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        super().server_bind()


def parts_of(content_type, body):
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    parts = []
    if not message.is_multipart():
        return parts
    for part in message.iter_parts():
        data = part.get_payload(decode=True) or b""
        entry = {"name": part.get_param("name", header="content-disposition"),
                 "filename": part.get_filename(), "contentType": part.get_content_type(),
                 "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        if entry["name"] == "report":
            entry["text"] = data.decode("utf-8", "replace")
        parts.append(entry)
    return parts


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, body, note=None):
        entry = {"t": time.time(), "method": self.command, "path": self.path,
                 "headers": {k.lower(): v for k, v in self.headers.items()},
                 "parts": parts_of(self.headers.get("Content-Type", ""), body) if body is not None else None,
                 "bodySize": None if body is None else len(body), "note": note}
        with self.server.lock:
            fd = os.open(self.server.record, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a") as out:
                out.write(json.dumps(entry) + "\n")

    def next_step(self):
        with self.server.lock:
            index = min(self.server.count, len(self.server.script) - 1)
            self.server.count += 1
        step = self.server.script[index]
        if "final" in step:
            step = step["final"] if self.headers.get("X-Facecap-Final") == "true" else step.get("else", {})
        return step

    def token_refusal(self):
        """The 401 step for a request without the server's token, or None when it has it (or none is set)."""
        token = self.server.token
        if token is None or self.headers.get("Authorization") == "Bearer " + token:
            return None
        said = "a token is needed" if self.headers.get("Authorization") is None else "this token is not accepted"
        return {"status": 401, "json": {"message": said}, "headers": {"WWW-Authenticate": "Bearer"}}

    def reply(self, step):
        if "json" in step:
            payload = json.dumps(step["json"]).encode()
        else:
            payload = step.get("body", "").encode()
        self.send_response(step.get("status", 200))
        for name, value in step.get("headers", {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_OPTIONS(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        self.record(body)
        step = self.server.preflight or self.token_refusal() or {
            "status": 204, "headers": {"Allow": "POST, OPTIONS"}}
        if step.get("action") == "close":
            self.close_connection = True
            return
        self.reply(step)

    def do_POST(self):
        refusal = self.token_refusal()
        step = refusal or self.next_step()
        length = int(self.headers.get("Content-Length", "0"))
        action = step.get("action")
        if action == "reset":
            body = self.rfile.read(min(step.get("after", 4096), length))
            self.record(None, note="reset after %d bytes" % len(body))
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        body = self.rfile.read(length)
        self.record(body)
        if action == "close":
            self.close_connection = True
            return
        if action == "stall":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b" " * step.get("sent", 20))
            self.wfile.flush()
            time.sleep(step.get("seconds", 60))
            return
        if action == "oversize":
            size = step.get("bytes", 2 * 1024 * 1024)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if step.get("chunked"):
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b" " * 65536
                sent = 0
                try:
                    while sent < size:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        sent += len(chunk)
                        if step.get("drip"):
                            self.wfile.flush()
                            time.sleep(step["drip"])
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    pass  # the client stopped reading at its limit, as it should
                with self.server.lock, open(self.server.record + ".sent", "a") as out:
                    out.write("%d\n" % sent)
            else:
                self.send_header("Content-Length", str(size))
                self.end_headers()
                try:
                    self.wfile.write(b" " * size)
                except OSError:
                    pass
            self.close_connection = True
            return
        if action == "announce":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(step.get("bytes", 2 * 1024 * 1024)))
            self.end_headers()
            self.wfile.flush()
            time.sleep(60)
            return
        self.reply(step)

    do_GET = do_PUT = do_DELETE = do_POST


def exit_with_parent():
    """Ends this server once the process that started it is gone. A test run that aborts (a sanitizer's
    report, a crash) leaves no server behind holding its output pipe open: `swift test` waits for every
    holder of that pipe, so an orphaned server would hang the run. Polls getppid() rather than setting
    PR_SET_PDEATHSIG, which fires when the *thread* that started the server ends, and the test runner
    may start it from a worker thread that ends long before the test does."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def main():
    exit_with_parent()
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--token")
    parser.add_argument("--preflight", type=json.loads)
    args = parser.parse_args()
    server = Server(("127.0.0.1", args.port), Handler)
    with open(args.script) as f:
        server.script = json.load(f)
    server.record = args.record
    server.token = args.token
    server.preflight = args.preflight
    server.count = 0
    server.lock = threading.Lock()
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
