#include "hdf5_golden_exceptions.h"

namespace kerchunk::testing {

const std::vector<GoldenException>& GoldenExceptions() {
  static constexpr std::string_view kFilterMask =
      "chunks stored with a non-zero filter mask (a filter skipped): kerchunk references bytes "
      "that zarr decodes wrongly; we apply OnUnsupported (the golden run skips)";
  static constexpr std::string_view kCompound =
      "compound type with padding or a variable-length member: kerchunk embeds rows as JSON "
      "(numbers turned into strings); we apply OnUnsupported (the golden run skips)";
  static constexpr std::string_view kStructured =
      "packed compound type: kerchunk embeds rows as JSON (numbers turned into strings, a "
      "dimension of fields added, chunk keys 0.0); we reference the rows in the file with a "
      "zarr structured dtype (one dimension, keys 0, 1, ...)";
  static constexpr std::string_view kOpaque =
      "opaque type: kerchunk references raw |V bytes; we apply OnUnsupported";
  static constexpr std::string_view kArray =
      "array type: kerchunk references raw bytes under the base dtype with a wrong shape; we "
      "apply OnUnsupported";
  static constexpr std::string_view kEaSwizzle =
      "extensible array whose unlimited dimension is not the first: libhdf5 1.10.8 (and so "
      "kerchunk) maps chunks to wrong coordinates (its own H5Dread returns zeros for columns "
      "3..5); kerchunk's 0.2/0.3 lie outside the shape. The file bytes show chunk 1.0 at 4144, "
      "which we give";
  static constexpr std::string_view kEaOldLinearisation =
      "the file's writer linearised this extensible array with the current dimensions; libhdf5 "
      "1.10.8 (and the native walker, which follows it) uses the maximum ones, so index "
      "elements 2 and 3 (bytes at 4120 and 4168) fall outside the shape and those cells read "
      "as the fill value, as h5dump shows (docs/differences.md)";
  static const std::vector<GoldenException> kTable = {
      {"filters/kerchunk/hdf5_mali_chunk*.h5", "data/*", DiffKind::kMissing, kFilterMask},
      {"filters/kerchunk/hdf5_mini_blosc.h5", "data/*", DiffKind::kMissing, kFilterMask},
      {"filters/kerchunk/hdf5_mini_shuffle_blosc.h5", "data/*", DiffKind::kMissing, kFilterMask},
      {"index_types/hdf5/h5fc_edge_v3.h5", "DSET_EDGE/*", DiffKind::kMissing,
       "the dataset does not filter partial edge chunks: they are stored raw under a deflate "
       "pipeline with filter mask 0, which kerchunk references as if compressed (zarr fails on "
       "them); we apply OnUnsupported (the golden run skips)"},
      {"index_types/hdf5/h5fc_ext*.h5", "*DSET_EA/0.[23]", DiffKind::kMissing, kEaSwizzle},
      {"index_types/hdf5/h5fc_ext*.h5", "*DSET_EA/0.1", DiffKind::kMissing, kEaOldLinearisation},
      {"index_types/hdf5/h5fc_ext*.h5", "*DSET_EA/1.0", DiffKind::kExtra, kEaSwizzle},
      {"index_types/hdf5/h5fc_non_v3.h5", "*DSET_EA/0.[23]", DiffKind::kMissing, kEaSwizzle},
      {"index_types/hdf5/h5fc_non_v3.h5", "*DSET_EA/0.1", DiffKind::kMissing, kEaOldLinearisation},
      {"index_types/hdf5/h5fc_non_v3.h5", "*DSET_EA/1.0", DiffKind::kExtra, kEaSwizzle},
      {"index_types/jhdf/chunked_v4_datasets.hdf5", "filtered_*/string/.zarray", DiffKind::kZarray,
       "variable-length strings are embedded as plain JSON (filters [json2]); kerchunk also "
       "listed the dataset's HDF5 filters and compressed the embedded JSON with them"},
      {"index_types/jhdf/chunked_v4_datasets.hdf5", "filtered_*/string/*.*", DiffKind::kInline,
       "the same JSON values, not zlib-compressed (see .zarray)"},
      {"types_layouts/hdf5/tmany.h5", "g1/g1.1/dset1/*.*", DiffKind::kMissing, kStructured},
      {"types_layouts/hdf5/tmany.h5", "g1/g1.1/dset1/.zarray", DiffKind::kZarray, kStructured},
      {"types_layouts/hdf5/tmany.h5", "g1/g1.1/dset1/[0-9]", DiffKind::kExtra, kStructured},
      {"types_layouts/jhdf/opaque_datasets_latest.hdf5", "*", DiffKind::kMissing, kOpaque},
      {"types_layouts/pyfive/opaque_datetime.hdf5", "opaque_datetimes/*", DiffKind::kMissing,
       kOpaque},
      {"types_layouts/kerchunk/NEONDSTowerTemperatureData.hdf5", "*/temperature/*.*",
       DiffKind::kMissing, kStructured},
      {"types_layouts/kerchunk/NEONDSTowerTemperatureData.hdf5", "*/temperature/.zarray",
       DiffKind::kZarray, kStructured},
      {"types_layouts/kerchunk/NEONDSTowerTemperatureData.hdf5", "*/temperature/[0-9]",
       DiffKind::kExtra, kStructured},
      {"types_layouts/kerchunk/vlen2.h5", "vlen_str/*", DiffKind::kMissing, kCompound},
      {"types_layouts/netcdf-c/ref_tst_h_compounds.h5", "obs_var/*", DiffKind::kMissing, kCompound},
      {"types_layouts/rhdf5/multiple_dtypes.h5", "data.frame/*.*", DiffKind::kMissing, kStructured},
      {"types_layouts/rhdf5/multiple_dtypes.h5", "data.frame/.zarray", DiffKind::kZarray,
       kStructured},
      {"types_layouts/rhdf5/multiple_dtypes.h5", "data.frame/[0-9]", DiffKind::kExtra, kStructured},
      {"types_layouts/rhdf5/h5ex_t_array.h5", "DS1/*", DiffKind::kMissing, kArray},
      {"types_layouts/pyfive/h5netcdf_test.hdf5", "z/.zarray", DiffKind::kZarray,
       "string _FillValue: kerchunk base64-encodes it twice and zarr truncates the result to "
       "the dtype ('X' -> 'WA==' -> 'W'); we give 'X'"},
  };
  return kTable;
}

const std::vector<FailedFileOutcome>& KerchunkFailedFileOutcomes() {
  static const std::vector<FailedFileOutcome> kOutcomes = {
      {"filters/h5wasm/compressed.h5",
       "dataset /scaleoffset: filter scaleoffset (id 6) has no numcodecs equivalent"},
      {"filters/hdf5/be_data.h5",
       "dataset /Nbit_float_data_be: float type of 4 bytes with no numpy equivalent"},
      {"filters/hdf5/filter_fail.h5",
       "dataset /dset_fail: filter unknown (id 312) has no numcodecs equivalent"},
      {"filters/hdf5/h5repack_filters.h5",
       "dataset /dset_all: filter deflate (id 1) follows fletcher32, so the checksum is not at the "
       "end of chunks"},
      {"filters/hdf5/h5repack_nbit.h5",
       "dataset /dset_int31: integer type of 4 bytes with no numpy equivalent"},
      {"filters/hdf5/h5repack_nested_8bit_enum_deflated.h5",
       "dataset /tracks/1/trace: compound type with padding"},
      {"filters/hdf5/h5repack_soffset.h5",
       "dataset /dset_scaleoffset: filter scaleoffset (id 6) has no numcodecs equivalent"},
      {"filters/hdf5/le_data.h5",
       "dataset /Nbit_float_data_be: float type of 4 bytes with no numpy equivalent"},
      {"filters/hdf5/noencoder.h5",
       "dataset /noencoder_szip_dset.h5: filter szip (id 4) has no numcodecs equivalent"},
      {"filters/hdf5/tfilters.h5", "dataset /all: filter szip (id 4) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_bitgroom.h5",
       "dataset /DS1: filter bitgroom (id 32022) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_blosc2.h5",
       "dataset /DS1: filter blosc2 (id 32026) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_bshuf.h5",
       "dataset /DS1: filter bitshuffle (id 32008) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_bzip2.h5",
       "dataset /DS1: filter bzip2 (id 307) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_granularbr.h5",
       "dataset /DS1: filter granular bitround (id 32023) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_jpeg.h5",
       "dataset /DS1: filter jpeg (id 32019) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_lz4.h5",
       "dataset /DS1: filter lz4 (id 32004) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_lzf.h5",
       "dataset /DS1: filter lzf (id 32000) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_mafisc.h5",
       "dataset /DS1: filter mafisc (id 32002) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_nplz4.h5",
       "dataset /DS1: filter lz4 (id 32004) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_sz.h5",
       "dataset /DS1: filter sz (id 32017) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/h5ex_d_zfp.h5",
       "dataset /DS1: filter zfp (id 32013) has no numcodecs equivalent"},
      {"filters/hdf5_plugins/test_zfp_be.h5",
       "dataset /compressed: filter zfp (id 32013) has no numcodecs equivalent"},
      {"filters/kerchunk/hdf5_compression_bitshuffle.h5",
       "dataset /data: filter bitshuffle (id 32008) has no numcodecs equivalent"},
      {"filters/kerchunk/hdf5_compression_lz4.h5",
       "dataset /data: filter lz4 (id 32004) has no numcodecs equivalent"},
      {"filters/kerchunk/hdf5_mini_lz4.h5",
       "dataset /data: filter lz4 (id 32004) has no numcodecs equivalent"},
      {"filters/netcdf-c/ref_szip.h5",
       "dataset /dset_szip: filter szip (id 4) has no numcodecs equivalent"},
      {"filters/pytables/Tables_lzo2_shuffle.h5",
       "dataset /group0/group1/tuple2: filter lzo (id 305) has no numcodecs equivalent"},
      {"filters/pytables/blosc_bigendian.h5", ""},
      {"filters/pytables/test_szip.h5",
       "dataset /dset_szip: filter szip (id 4) has no numcodecs equivalent"},
      {"index_types/hdf5/tdset2.h5", ""},
      {"index_types/hdf5/test_ld.h5", ""},
      {"index_types/jhdf/fletcher32_datasets_earliest.hdf5", ""},
      {"index_types/jhdf/fletcher32_datasets_latest.hdf5", ""},
      {"index_types/jhdf/hdf_v14_test2.hdf5", ""},
      {"index_types/jhdf/test_compressed_chunked_datasets_earliest.hdf5",
       "dataset /float/float32lzf: filter lzf (id 32000) has no numcodecs equivalent"},
      {"index_types/jhdf/test_compressed_chunked_datasets_latest.hdf5",
       "dataset /float/float32lzf: filter lzf (id 32000) has no numcodecs equivalent"},
      {"index_types/jhdf/test_odd_datasets_earliest.hdf5", ""},
      {"index_types/jhdf/test_odd_datasets_latest.hdf5", ""},
      {"real_netcdf4/ncmeta/S2008001.L3b_DAY_CHL.nc", ""},
      {"timeseries/nc4_opendrift_Nordic_ROMS_3days/Nordic_subset_COMBINED_reference.nc", ""},
      {"timeseries/nc4_opendrift_Nordic_ROMS_3days/Nordic_subset_day1.nc", ""},
      {"timeseries/nc4_opendrift_Nordic_ROMS_3days/Nordic_subset_day2.nc", ""},
      {"timeseries/nc4_opendrift_Nordic_ROMS_3days/Nordic_subset_day3.nc", ""},
      {"types_layouts/h5wasm/array.h5", "dataset /float_arr: array type"},
      {"types_layouts/hdf5/h5copytst.h5",
       "dataset /grp_dsets/nested_vl: variable-length sequence of a non-numeric type"},
      {"types_layouts/hdf5/tcompound2.h5", ""},
      {"types_layouts/hdf5/tnestedcmpddt.h5", ""},
      {"types_layouts/hdf5/tsaf.h5",
       "dataset /.attributes/database/.SAF_DbProps: compound type: member 'safapi' is compound "
       "type with padding"},
      {"types_layouts/jhdf/bitfield_datasets.hdf5",
       "dataset /compressed_chunked_2d_bitfield: filter shuffle (id 2) follows fletcher32, so the "
       "checksum is not at the end of chunks"},
      {"types_layouts/jhdf/compound_datasets_earliest.hdf5",
       "dataset /array_vlen_chunked_compound: compound type: member 'name' is a variable-length "
       "string"},
      {"types_layouts/jhdf/compound_datasets_latest.hdf5",
       "dataset /array_vlen_chunked_compound: compound type: member 'name' is a variable-length "
       "string"},
      {"types_layouts/jhdf/isssue-523.hdf5",
       "dataset /42571/Protocols/Generic/TRIGGER/0/Frames: compound type with padding"},
      {"types_layouts/jhdf/issue255_example.hdf5", ""},
      {"types_layouts/jhdf/test_compact_datasets_earliest.hdf5", ""},
      {"types_layouts/jhdf/test_compact_datasets_latest.hdf5", ""},
      {"types_layouts/jhdf/test_compound_scalar_attribute.hdf5", ""},
      {"types_layouts/jhdf/test_multidimensional_array.hdf5",
       "dataset /GROUP1/GROUP2/DATASET2: compound type: member 'myUnitSymbol' is a "
       "variable-length string"},
      {"types_layouts/jhdf/test_scalar_empty_datasets_latest.hdf5", ""},
      {"types_layouts/jhdf/test_vlen_datasets_earliest.hdf5", ""},
      {"types_layouts/jhdf/test_vlen_datasets_latest.hdf5", ""},
      {"types_layouts/jhdf/utf8-fixed-length.hdf5", ""},
      {"types_layouts/jsfive/test.h5", ""},
      {"types_layouts/netcdf-c/ref_nc_test_netcdf4_4_0.nc", ""},
      {"types_layouts/netcdf-c/ref_tst_compounds.nc", "dataset /obs: compound type with padding"},
      {"types_layouts/pyfive/dim_scales.hdf5", ""},
  };
  return kOutcomes;
}

}  // namespace kerchunk::testing
