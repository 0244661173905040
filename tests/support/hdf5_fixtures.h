// Generated HDF5 fixture files covering every chunk index type libhdf5 1.10 writes, for tests of
// the native chunk-index walker and of anything built on it (scan, verify). Each Write*Fixture
// function creates one file in `dir` with the HDF5 C API and returns its path; the datasets in
// it are listed in the function's comment. "latest" files use H5Pset_libver_bounds(LATEST,
// LATEST), which makes libhdf5 pick the index from the dataset's shape:
//   fixed maximum shape equal to the chunk  -> single chunk
//   fixed maximum shape, early allocation, no filters -> implicit
//   fixed maximum shape otherwise            -> fixed array
//   exactly one unlimited dimension          -> extensible array
//   two or more unlimited dimensions         -> version 2 B-tree
// Default-libver files use version 1 B-trees for every chunked dataset.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// One chunked dataset to create. Values are a deterministic pattern (so filters compress and
/// chunks differ); chunks are written one hyperslab at a time, only where write_chunk is true.
struct ChunkedDatasetSpec {
  std::string name;                 ///< path inside the file, e.g. "/g/data"
  std::vector<hsize_t> dims;        ///< current shape
  std::vector<hsize_t> max_dims;    ///< empty: same as dims; H5S_UNLIMITED allowed
  std::vector<hsize_t> chunk;       ///< chunk shape
  hid_t file_type = H5T_STD_I32LE;  ///< stored type, e.g. H5T_STD_I16BE for big-endian
  bool shuffle = false;
  bool deflate = false;
  bool fletcher32 = false;
  bool early_allocation = false;  ///< H5D_ALLOC_TIME_EARLY (implicit index when unfiltered)
  /// Which chunks to write, by row-major index over the current chunk grid; empty: all.
  std::function<bool(uint64_t chunk_index)> write_chunk;
};

/// How WriteHdf5File creates a file.
struct Hdf5FileOptions {
  bool latest_format = false;  ///< H5Pset_libver_bounds(LATEST, LATEST); else the defaults
  hsize_t user_block = 0;
  /// Close with a metadata cache image (H5Pset_mdc_image_config): libhdf5 1.10.8 then writes
  /// the metadata in its cache (object headers, index nodes, heaps) only into the image block,
  /// not at their addresses. It needs a superblock extension (version 2 or later).
  bool cache_image = false;
  /// Attributes stored in a shared-message table (which also makes the superblock version 2
  /// with the default bounds).
  bool shared_attributes = false;
  /// Called with the open file after the datasets are written (more objects).
  std::function<Status(hid_t file)> extra;
};

/// Creates `path` with the datasets.
Status WriteHdf5File(const std::string& path, const std::vector<ChunkedDatasetSpec>& datasets,
                     const Hdf5FileOptions& options);
/// Creates `path` (latest or default format bounds, optional user block) with the datasets.
Status WriteHdf5File(const std::string& path, const std::vector<ChunkedDatasetSpec>& datasets,
                     bool latest_format, hsize_t user_block = 0);

/// Default format, v1 B-trees: "/d1" 1-D int32, 1429 chunks with a partial edge chunk (several
/// B-tree levels); "/d2_deflate_shuffle" 2-D float32 with deflate+shuffle and every fifth chunk
/// unwritten; "/d3_fletcher_be" 3-D big-endian int16 with fletcher32; "/d4" 4-D uint8;
/// "/g/unlimited" 2-D with unlimited dimensions; "/empty" with no chunk written.
Result<std::string> WriteBTreeV1Fixture(const std::filesystem::path& dir);

/// Latest format, single chunk index: "/single", "/single_deflate" (filtered: size and mask in
/// the layout message), "/single_unwritten" (no chunk).
Result<std::string> WriteSingleChunkFixture(const std::filesystem::path& dir);

/// Latest format, implicit index (early allocation, no filters): "/implicit" 2-D with partial
/// edge chunks, "/implicit_max" whose maximum shape exceeds its shape, "/implicit_3d_be".
Result<std::string> WriteImplicitFixture(const std::filesystem::path& dir);

/// Latest format, fixed array: "/fa_small" (unpaged), "/fa_paged" 1-D with 3000 chunks (3 data
/// block pages), "/fa_sparse_pages" 5000 chunks with only pages 0 and 3 written,
/// "/fa_deflate_2d" 1156 filtered chunks (paged, partial edges, some unwritten),
/// "/fa_max" whose maximum shape exceeds its shape, "/fa_fletcher_be_3d".
Result<std::string> WriteFixedArrayFixture(const std::filesystem::path& dir);

/// Latest format, extensible array (one unlimited dimension): "/ea_small" (index block only),
/// "/ea" 1-D with 3000 chunks (super blocks beyond the index block), "/ea_deflate" filtered
/// with gaps, "/ea_unlimited_last" 2-D whose unlimited dimension is the last one (libhdf5
/// reorders it first), "/ea_sparse" with a few chunks far apart, "/ea_3d_be".
Result<std::string> WriteExtensibleArrayFixture(const std::filesystem::path& dir);

/// Latest format, version 2 B-tree (two or more unlimited dimensions): "/bt2_small" (root leaf),
/// "/bt2" 3600 chunks (internal root), "/bt2_deflate" 4900 filtered chunks (depth 2),
/// "/bt2_3d_sparse" 3-D with unwritten chunks and big-endian doubles.
Result<std::string> WriteBTreeV2Fixture(const std::filesystem::path& dir);

/// Latest format with a 512-byte user block: "/fa" (fixed array), "/ea" (extensible array);
/// every HDF5 address is relative to base address 512.
Result<std::string> WriteUserBlockFixture(const std::filesystem::path& dir);

/// Files closed with a metadata cache image, whose metadata libhdf5 keeps only in the image.
/// latest ("cache_image_latest.h5", latest format): "/single" (single chunk), "/g/implicit",
/// "/g/fa" (fixed array, deflate), "/g/ea" (extensible array with super blocks), "/bt2"
/// (version 2 B-tree), "/contiguous", "/compact", "/g/strings" (vlen strings, global heap);
/// group "/g" with 12 attributes (dense: fractal heap and v2 B-tree name index) and "/many"
/// with 12 links (dense links). Otherwise ("cache_image_v1.h5", default format with a
/// shared-message table, so superblock 2, and a 512-byte user block): symbol-table groups
/// (local heaps, symbol table nodes) "/g", "/g/h" and "/many", version 1 B-tree chunk indexes
/// "/g/bt1_deep" (two levels) and "/g/h/bt1_2d", attributes shared in the table (fractal heap),
/// "/contiguous", "/g/h/compact", "/g/h/strings". libhdf5 writes none of the image's entries
/// at their addresses in either file.
Result<std::string> WriteCacheImageFixture(const std::filesystem::path& dir, bool latest);

/// All of the above but the cache image fixtures, in this order.
Result<std::vector<std::string>> WriteAllIndexFixtures(const std::filesystem::path& dir);

/// Small files (a few KB) with one dataset "/data" of the named index type ("btree1", "single",
/// "implicit", "farray", "farray_paged", "earray", "btree2"; "cache_image": an extensible array
/// in a file closed with a metadata cache image), for fuzz seeds and corruption tests.
Result<std::string> WriteSmallIndexFixture(const std::filesystem::path& dir,
                                           const std::string& index_type);

}  // namespace kerchunk::testing
