#!/usr/bin/python3
"""A TCP proxy that adds a fixed latency each way, to time remote reads on 127.0.0.1 as if the
server were across a network: every chunk read from one side is written to the other DELAY ms
after it arrived (chunks are pipelined, not serialised: a latency, not a bandwidth limit).

  latency_proxy.py --listen PORT --to HOST:PORT --delay-ms N

Prints "ready" on standard output once listening. Used by remote_compare.sh.
"""
import argparse
import asyncio
import sys


async def pipe(reader, writer, delay):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(65536)
            await queue.put((loop.time() + delay, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    try:
        await asyncio.gather(read(), write())
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--to", required=True, help="HOST:PORT of the server")
    parser.add_argument("--delay-ms", type=float, default=0)
    args = parser.parse_args()
    host, port = args.to.rsplit(":", 1)
    delay = args.delay_ms / 1000

    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer, delay),
                             pipe(server_reader, client_writer, delay))

    server = await asyncio.start_server(handle, "127.0.0.1", args.listen)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
