"""The xarray backend engine "kerchunk_packed": xr.open_dataset(index, engine="kerchunk_packed")
for packed and plain Kerchunk indexes. It opens a PackedStore and hands it to xarray's own zarr
backend with consolidated metadata, so decoding, chunks={} (lazy dask arrays) and
open_mfdataset behave exactly as for any zarr store."""
import os

from xarray.backends import BackendEntrypoint
from xarray.backends.zarr import ZarrBackendEntrypoint

from ._store import PackedStore, open_store


class KerchunkPackedBackendEntrypoint(BackendEntrypoint):
    description = "Open packed or plain Kerchunk reference indexes through the kerchunk C++ reader"
    url = "https://fsspec.github.io/kerchunk/spec.html"  # the reference format it reads

    open_dataset_parameters = (
        "filename_or_obj",
        "mask_and_scale",
        "decode_times",
        "concat_characters",
        "decode_coords",
        "drop_variables",
        "use_cftime",
        "decode_timedelta",
        "group",
        "rewrite",
        "storage_options",
    )

    def open_dataset(
        self,
        filename_or_obj,
        *,
        mask_and_scale=True,
        decode_times=True,
        concat_characters=True,
        decode_coords=True,
        drop_variables=None,
        use_cftime=None,
        decode_timedelta=None,
        group=None,
        rewrite=None,
        storage_options=None,
    ):
        if isinstance(filename_or_obj, PackedStore):
            store = filename_or_obj
        else:
            store = open_store(
                os.fspath(filename_or_obj), rewrite=rewrite, storage_options=storage_options
            )
        return ZarrBackendEntrypoint().open_dataset(
            store,
            mask_and_scale=mask_and_scale,
            decode_times=decode_times,
            concat_characters=concat_characters,
            decode_coords=decode_coords,
            drop_variables=drop_variables,
            use_cftime=use_cftime,
            decode_timedelta=decode_timedelta,
            group=group,
            mode="r",
            consolidated=True,
        )

    def guess_can_open(self, filename_or_obj):
        """Packed files only (".packed.json"): a plain ".json" may be anything, so it needs
        engine="kerchunk_packed" said explicitly."""
        if isinstance(filename_or_obj, PackedStore):
            return True
        try:
            return os.fspath(filename_or_obj).endswith(".packed.json")
        except TypeError:
            return False
