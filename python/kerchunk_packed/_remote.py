"""Reads of references to non-local URLs (s3://, https://, memory://, ...) through fsspec, so
users' protocols and credentials work as with fsspec's ReferenceFileSystem."""
from collections import defaultdict


class RemoteReader:
    """One fsspec filesystem per protocol, made on first use with `storage_options` (keyword
    arguments of the filesystem, e.g. {"anon": True} for s3)."""

    def __init__(self, storage_options=None):
        self._storage_options = dict(storage_options or {})
        self._filesystems = {}

    def _filesystem(self, url):
        import fsspec.core

        protocol = url.split("://", 1)[0]
        if protocol not in self._filesystems:
            fs, _ = fsspec.core.url_to_fs(url, **self._storage_options)
            self._filesystems[protocol] = fs
        return self._filesystems[protocol]

    def read(self, pending):
        """pending: {key: (url, offset, length or None)} -> {key: bytes}. Ranges of one
        filesystem go in one cat_ranges call (concurrent on async filesystems)."""
        by_fs = defaultdict(list)
        for key, (url, offset, length) in pending.items():
            by_fs[id(self._filesystem(url))].append((key, url, offset, length))
        out = {}
        for items in by_fs.values():
            fs = self._filesystem(items[0][1])
            ranges = [it for it in items if it[3] is not None]
            whole = [it for it in items if it[3] is None]
            if ranges:
                try:
                    blobs = fs.cat_ranges(
                        [url for _, url, _, _ in ranges],
                        [offset for _, _, offset, _ in ranges],
                        [offset + length for _, _, offset, length in ranges],
                    )
                except Exception:  # noqa: BLE001 (one at a time, to name the failing key)
                    blobs = [_cat_one(fs, key, url, o, o + n) for key, url, o, n in ranges]
                for (key, url, offset, length), blob in zip(ranges, blobs):
                    if isinstance(blob, Exception):
                        raise _named(blob, key, url)
                    if len(blob) != length:
                        raise ValueError(
                            f"key {key}: bytes [{offset}, {offset + length}) of {url} are past "
                            f"its end (got {len(blob)} bytes)"
                        )
                    out[key] = bytes(blob)
            for key, url, _, _ in whole:
                out[key] = bytes(_cat_one(fs, key, url, None, None))
        return out


def _cat_one(fs, key, url, start, end):
    try:
        return fs.cat_file(url, start=start, end=end)
    except Exception as e:  # noqa: BLE001 (re-raised with the key named)
        raise _named(e, key, url) from e


def _named(error, key, url):
    """The same kind of exception, its message naming the key and URL."""
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(f"key {key}: {url}: {error}")
    if isinstance(error, OSError):
        return OSError(f"key {key}: {url}: {error}")
    return ValueError(f"key {key}: {url}: {error}")
