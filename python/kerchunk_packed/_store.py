"""The zarr v2 store over a packed or plain Kerchunk index."""
import json
import os

from zarr.errors import ReadOnlyError
from zarr.storage import BaseStore

from . import _core
from ._remote import RemoteReader

_METADATA_NAMES = (".zgroup", ".zarray", ".zattrs")
_CONSOLIDATED_KEY = ".zmetadata"


def open_store(path, *, rewrite=None, storage_options=None):
    """A read-only zarr v2 store over the index at `path` (a packed file or a plain Kerchunk
    JSON; a local path, "file://...", or any fsspec URL for the index itself).

    rewrite: FROM=TO prefix rules for the URLs the index refers to, as `kerchunk scan
    --rewrite` takes them: a dict {FROM: TO}, or a list of "FROM=TO" strings or (FROM, TO)
    pairs. The longest matching FROM wins, at a '/' boundary.
    storage_options: keyword arguments for the fsspec filesystem of non-local URLs (and of a
    non-local index).

    Raises FileNotFoundError for a missing index, ValueError for a corrupt or newer-format one.
    """
    return PackedStore(path, rewrite=rewrite, storage_options=storage_options)


def _rewrite_rules(rewrite):
    if rewrite is None:
        return []
    if isinstance(rewrite, dict):
        items = list(rewrite.items())
    elif isinstance(rewrite, str):
        items = [rewrite]
    else:
        items = list(rewrite)
    rules = []
    for item in items:
        if isinstance(item, str):
            if "=" not in item:
                raise ValueError(f"rewrite rule {item!r}: expected FROM=TO")
            item = item.split("=", 1)
        source, target = item
        if not source:
            raise ValueError(f"rewrite rule {source}={target}: FROM must not be empty")
        rules.append((str(source), str(target)))
    return rules


def _open_index(path, rules, storage_options):
    if "://" not in path or path.startswith("file://"):
        local = path[len("file://"):] if path.startswith("file://") else path
        return _core.Index(local, rules)
    import fsspec

    with fsspec.open(path, "rb", **(storage_options or {})) as f:
        text = f.read()
    return _core.Index.parse(text, path, rules)


class PackedStore(BaseStore):
    """A read-only zarr v2 store (a Mapping[str, bytes]) over a packed or plain Kerchunk index.

    Keys resolve through the C++ index: metadata and inline values directly; chunks of local
    files ("/path" or "file://") are read with pread in C++, without the GIL; chunks elsewhere
    through fsspec. An unwritten chunk raises KeyError (zarr uses the fill value). `getitems`
    resolves and reads a whole zarr selection in one call into C++.

    Iteration and listdir() give the keys that are not chunks (groups, arrays, their metadata)
    plus ".zmetadata", the consolidated metadata built from them: listing never expands chunk
    keys, so a store of millions of chunks lists in microseconds. Chunk keys are served but not
    listed.
    """

    _readable = True
    _writeable = False
    _erasable = False
    _listable = True

    def __init__(self, path, *, rewrite=None, storage_options=None):
        self._path = os.fspath(path)
        self._rewrite = rewrite
        self._storage_options = storage_options
        self._index = _open_index(self._path, _rewrite_rules(rewrite), storage_options)
        self._remote = RemoteReader(storage_options)
        self._entry_keys = self._index.entry_keys()
        # An index that carries its own .zmetadata serves it; otherwise it is built here.
        self._builds_consolidated = _CONSOLIDATED_KEY not in set(self._entry_keys)
        self._consolidated = None

    def __reduce__(self):
        # Reopened by path where unpickled (dask's distributed workers).
        return (_reopen, (self._path, self._rewrite, self._storage_options))

    def __repr__(self):
        kind = "packed" if self._index.packed else "Kerchunk JSON"
        return f"<kerchunk_packed.PackedStore {self._path!r} ({kind}, {self._index.key_count} keys)>"

    @property
    def packed(self):
        """True for a packed index, False for plain Kerchunk JSON."""
        return self._index.packed

    def getitems(self, keys, *, contexts=None, on_error="omit"):
        """{key: bytes} for the keys that have a value (zarr 2.13 calls this for every
        multi-chunk selection with on_error="omit": absent keys are left out). Errors other
        than absence always raise, naming the key and URL: a corrupt reference must not read
        as fill values."""
        keys = list(keys)
        out = {}
        lookup = []
        for key in keys:
            if key == _CONSOLIDATED_KEY and self._builds_consolidated:
                out[key] = self._consolidated_metadata()
            else:
                lookup.append(key)
        pending = {}
        for key, value in zip(lookup, self._index.get_many(lookup)):
            if value is None:
                continue
            if isinstance(value, tuple):
                pending[key] = value
            else:
                out[key] = value
        if pending:
            out.update(self._remote.read(pending))
        return out

    def __getitem__(self, key):
        value = self.getitems([key]).get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key):
        if key == _CONSOLIDATED_KEY and self._builds_consolidated:
            return True
        return self._index.contains(key)

    def __iter__(self):
        yield from self._entry_keys
        if self._builds_consolidated:
            yield _CONSOLIDATED_KEY

    def __len__(self):
        return len(self._entry_keys) + int(self._builds_consolidated)

    def listdir(self, path=""):
        """The names directly under `path` among the listed keys (no chunk keys)."""
        prefix = path.strip("/") + "/" if path.strip("/") else ""
        names = set()
        for key in self:
            if key.startswith(prefix):
                names.add(key[len(prefix):].split("/", 1)[0])
        return sorted(names)

    def __setitem__(self, key, value):
        raise ReadOnlyError()

    def __delitem__(self, key):
        raise ReadOnlyError()

    def _consolidated_metadata(self):
        """zarr's consolidated metadata (format 1) of every .zgroup/.zarray/.zattrs, so that
        zarr and xarray open the hierarchy with one read instead of listing it."""
        if self._consolidated is None:
            names = [k for k in self._entry_keys if k.rsplit("/", 1)[-1] in _METADATA_NAMES]
            values = self._index.get_many(names)
            metadata = {}
            for key, value in zip(names, values):
                if isinstance(value, bytes):
                    metadata[key] = json.loads(value)
            document = {"zarr_consolidated_format": 1, "metadata": metadata}
            self._consolidated = json.dumps(document).encode()
        return self._consolidated


def _reopen(path, rewrite, storage_options):
    return PackedStore(path, rewrite=rewrite, storage_options=storage_options)
