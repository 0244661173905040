#!/usr/bin/env python3
"""HTTP servers on 127.0.0.1 for the remote-source tests, each printing its port when ready.

  test_server.py faults ROOT   -- files of ROOT with Range support under /files/, and faulty
                                  endpoints (404, 403, 503 then success, a body cut short, a
                                  connection closed mid-body, a server that stalls, a server that
                                  ignores Range)
  test_server.py s3 ROOT       -- an S3-compatible endpoint, path style (/BUCKET/KEY, where ROOT
                                  holds BUCKET as a folder): GET/HEAD of objects with Range, and
                                  ListObjectsV2. Requests must be signed (AWS Signature Version 4)
                                  with the test credentials, checked with botocore's own signer,
                                  unless the bucket is "public".

Each request is logged to stderr as "METHOD PATH RANGE STATUS".
"""
import datetime
import http.server
import os
import socketserver
import sys
import threading
import time
import urllib.parse
from xml.sax.saxutils import escape

ACCESS_KEY = "AKIDKERCHUNKTEST"
SECRET_KEY = "kerchunk/test+secret"
REGION = "us-east-1"

COUNTS = {}
LOCK = threading.Lock()


def once_more(name):
    with LOCK:
        COUNTS[name] = COUNTS.get(name, 0) + 1
        return COUNTS[name]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    mode = "faults"

    def log_message(self, fmt, *args):
        pass

    def log(self, status):
        sys.stderr.write("%s %s %s %d\n" % (self.command, self.path, self.headers.get("Range", "-"), status))
        sys.stderr.flush()

    def reply(self, status, body=b"", headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.log(status)

    def serve_file(self, path, honour_range=True):
        if not os.path.isfile(path):
            return self.reply(404, b"not found")
        data = open(path, "rb").read()
        size = len(data)
        rng = self.headers.get("Range")
        if not rng or not honour_range:
            return self.reply(200, data)
        first, last = rng.split("=")[1].split("-")
        first, last = int(first), min(int(last), size - 1)
        if first >= size:
            return self.reply(416, b"", {"Content-Range": "bytes */%d" % size})
        return self.reply(206, data[first:last + 1],
                          {"Content-Range": "bytes %d-%d/%d" % (first, last, size)})

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if self.mode == "s3":
            return self.s3()
        path = urllib.parse.unquote(self.path)
        if path.startswith("/files/"):
            return self.serve_file(os.path.join(self.root, path[len("/files/"):]))
        if path.startswith("/norange/"):
            return self.serve_file(os.path.join(self.root, path[len("/norange/"):]), False)
        if path == "/missing":
            return self.reply(404, b"no such file")
        if path == "/forbidden":
            return self.reply(403, b"forbidden")
        if path.startswith("/flaky/"):  # 503 on the first two requests of each path, then OK
            if once_more(path) <= 2:
                return self.reply(503, b"busy")
            return self.serve_file(os.path.join(self.root, path[len("/flaky/"):]))
        if path == "/always-503":
            return self.reply(503, b"busy")
        if path.startswith("/truncate/"):  # announces the range, sends half, closes
            data = open(os.path.join(self.root, path[len("/truncate/"):]), "rb").read()
            self.send_response(206)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Content-Range", "bytes 0-%d/%d" % (len(data) - 1, len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.log(206)
            self.close_connection = True
            return
        if path == "/stall":  # headers, then nothing
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            self.log(200)
            time.sleep(30)
            return
        return self.reply(404, b"unknown test path")

    # --- S3 ---------------------------------------------------------------------------------

    def s3_error(self, status, code, message):
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code><Message>%s</Message>"
                "</Error>" % (code, escape(message))).encode()
        return self.reply(status, body, {"Content-Type": "application/xml"})

    def signature_ok(self):
        from botocore.auth import S3SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials

        auth = self.headers.get("Authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return False, "no AWS4-HMAC-SHA256 Authorization header"
        fields = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
        signed = fields["SignedHeaders"].split(";")
        headers = {h: self.headers.get(h) for h in signed if h != "host"}
        url = "http://%s%s" % (self.headers.get("Host"), self.path)
        request = AWSRequest(method=self.command, url=url, headers=headers)
        request.headers["Host"] = self.headers.get("Host")
        amz_date = self.headers.get("x-amz-date")
        request.context["timestamp"] = amz_date
        signer = S3SigV4Auth(Credentials(ACCESS_KEY, SECRET_KEY,
                                         self.headers.get("x-amz-security-token")), "s3", REGION)
        canonical = signer.canonical_request(request)
        expected = signer.signature(signer.string_to_sign(request, canonical), request)
        credential = "%s/%s/%s/s3/aws4_request" % (ACCESS_KEY, amz_date[:8], REGION)
        if fields.get("Credential") != credential:
            return False, "credential scope %s, expected %s" % (fields.get("Credential"), credential)
        if fields.get("Signature") != expected:
            return False, "signature %s, expected %s" % (fields.get("Signature"), expected)
        return True, ""

    def s3(self):
        parsed = urllib.parse.urlsplit(self.path)
        parts = parsed.path.lstrip("/").split("/", 1)
        bucket = urllib.parse.unquote(parts[0])
        key = urllib.parse.unquote(parts[1]) if len(parts) > 1 else ""
        if bucket != "public":
            ok, why = self.signature_ok()
            if not ok:
                return self.s3_error(403, "SignatureDoesNotMatch", why)
        folder = os.path.join(self.root, bucket)
        if not os.path.isdir(folder):
            return self.s3_error(404, "NoSuchBucket", bucket)
        query = urllib.parse.parse_qs(parsed.query)
        if not key and query.get("list-type") == ["2"]:
            return self.list_objects(folder, query)
        if not os.path.isfile(os.path.join(folder, key)):
            return self.s3_error(404, "NoSuchKey", key)
        return self.serve_file(os.path.join(folder, key))

    def list_objects(self, folder, query):
        prefix = query.get("prefix", [""])[0]
        token = query.get("continuation-token", [""])[0]
        page = int(query.get("max-keys", ["2"])[0])  # small pages: the client must follow tokens
        keys = []
        for dirpath, _, files in os.walk(folder):
            for f in files:
                k = os.path.relpath(os.path.join(dirpath, f), folder)
                if k.startswith(prefix):
                    keys.append(k)
        keys.sort()
        start = keys.index(token) if token in keys else 0
        chosen, rest = keys[start:start + page], keys[start + page:]
        items = "".join("<Contents><Key>%s</Key><Size>%d</Size></Contents>" % (
            escape(k), os.path.getsize(os.path.join(folder, k))) for k in chosen)
        more = ("<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>" %
                escape(rest[0])) if rest else "<IsTruncated>false</IsTruncated>"
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Prefix>%s</Prefix>"
                "<KeyCount>%d</KeyCount>%s%s</ListBucketResult>" % (escape(prefix), len(chosen),
                                                                     items, more)).encode()
        return self.reply(200, body, {"Content-Type": "application/xml"})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    mode, root = sys.argv[1], sys.argv[2]
    Handler.mode = mode
    Handler.root = root
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
