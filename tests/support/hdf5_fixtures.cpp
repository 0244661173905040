#include "support/hdf5_fixtures.h"

#include <fmt/format.h>

#include "hdf5/h5_library.h"

namespace kerchunk::testing {
namespace {

using hdf5::Check;
using hdf5::Handle;

// Creates the groups on the way to `name` ("/a/b/data" creates /a and /a/b).
Status MakeParents(hid_t file, const std::string& name) {
  for (size_t slash = name.find('/', 1); slash != std::string::npos;
       slash = name.find('/', slash + 1)) {
    std::string group = name.substr(0, slash);
    if (H5Lexists(file, group.c_str(), H5P_DEFAULT) > 0) continue;
    KERCHUNK_ASSIGN_OR_RETURN(
        Handle g, Check(H5Gcreate2(file, group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        "create group " + group));
  }
  return OkStatus();
}

Result<Handle> CreateDataset(hid_t file, const ChunkedDatasetSpec& spec) {
  const int rank = static_cast<int>(spec.dims.size());
  KERCHUNK_ASSIGN_OR_RETURN(Handle dcpl, Check(H5Pcreate(H5P_DATASET_CREATE), "dcpl"));
  KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_chunk(dcpl.get(), rank, spec.chunk.data()), "chunk"));
  if (spec.shuffle) KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_shuffle(dcpl.get()), "shuffle"));
  if (spec.deflate) KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_deflate(dcpl.get(), 4), "deflate"));
  if (spec.fletcher32) {
    KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_fletcher32(dcpl.get()), "fletcher32"));
  }
  if (spec.early_allocation) {
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "alloc time"));
  }
  const auto& max = spec.max_dims.empty() ? spec.dims : spec.max_dims;
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle space, Check(H5Screate_simple(rank, spec.dims.data(), max.data()), "dataspace"));
  KERCHUNK_RETURN_IF_ERROR(MakeParents(file, spec.name));
  return Check(H5Dcreate2(file, spec.name.c_str(), spec.file_type, space.get(), H5P_DEFAULT,
                          dcpl.get(), H5P_DEFAULT),
               "create dataset " + spec.name);
}

// Writes the chunks selected by spec.write_chunk, one hyperslab per chunk.
Status WriteChunks(hid_t dset, const ChunkedDatasetSpec& spec) {
  const size_t rank = spec.dims.size();
  std::vector<hsize_t> grid(rank), coords(rank, 0), start(rank), count(rank);
  uint64_t total = 1;
  for (size_t d = 0; d < rank; ++d) {
    grid[d] = (spec.dims[d] + spec.chunk[d] - 1) / spec.chunk[d];
    total *= grid[d];
  }
  KERCHUNK_ASSIGN_OR_RETURN(Handle file_space, Check(H5Dget_space(dset), "get space"));
  std::vector<int32_t> values;
  for (uint64_t index = 0; index < total; ++index) {
    if (!spec.write_chunk || spec.write_chunk(index)) {
      uint64_t n = 1;
      for (size_t d = 0; d < rank; ++d) {
        start[d] = coords[d] * spec.chunk[d];
        count[d] = std::min<hsize_t>(spec.chunk[d], spec.dims[d] - start[d]);
        n *= count[d];
      }
      values.resize(n);
      for (uint64_t i = 0; i < n; ++i)
        values[i] = static_cast<int32_t>((index * 31 + i % 97) % 120);
      KERCHUNK_RETURN_IF_ERROR(
          Check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr,
                                    count.data(), nullptr),
                "select"));
      KERCHUNK_ASSIGN_OR_RETURN(
          Handle mem,
          Check(H5Screate_simple(static_cast<int>(rank), count.data(), nullptr), "memory space"));
      KERCHUNK_RETURN_IF_ERROR(Check(
          H5Dwrite(dset, H5T_NATIVE_INT32, mem.get(), file_space.get(), H5P_DEFAULT, values.data()),
          "write chunk of " + spec.name));
    }
    for (size_t d = rank; d-- > 0;) {
      if (++coords[d] < grid[d]) break;
      coords[d] = 0;
    }
  }
  return OkStatus();
}

std::function<bool(uint64_t)> EveryNth(uint64_t n, uint64_t skip) {
  return [n, skip](uint64_t i) { return i % n != skip; };
}

constexpr hsize_t U = H5S_UNLIMITED;

Status IntAttribute(hid_t object, const std::string& name, int value) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Screate(H5S_SCALAR), "scalar"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle attr, Check(H5Acreate2(object, name.c_str(), H5T_STD_I32LE,
                                                          space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                               "attribute " + name));
  return Check(H5Awrite(attr.get(), H5T_NATIVE_INT, &value), "write attribute " + name);
}

// A small fully written dataset of int16 values 0, 1, 2, ... with the given layout.
Status SmallDataset(hid_t file, const char* name, H5D_layout_t layout) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle dcpl, Check(H5Pcreate(H5P_DATASET_CREATE), "dcpl"));
  KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_layout(dcpl.get(), layout), "layout"));
  const hsize_t dims[2] = {3, 4};
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Screate_simple(2, dims, nullptr), "space"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle dset, Check(H5Dcreate2(file, name, H5T_STD_I16LE, space.get(),
                                                          H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                                               name));
  const int16_t values[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  return Check(H5Dwrite(dset.get(), H5T_NATIVE_INT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, values), name);
}

Status VlenStrings(hid_t file, const char* name) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle type, Check(H5Tcopy(H5T_C_S1), "string type"));
  KERCHUNK_RETURN_IF_ERROR(Check(H5Tset_size(type.get(), H5T_VARIABLE), "vlen"));
  const hsize_t dims[1] = {3};
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Screate_simple(1, dims, nullptr), "space"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle dset, Check(H5Dcreate2(file, name, type.get(), space.get(),
                                                          H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                                               name));
  const char* values[3] = {"alpha", "", "gamma delta"};
  return Check(H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, values), name);
}

// Groups, attributes and non-chunked datasets around the cache image fixture's chunked ones;
// more than 8 attributes or links become dense storage in the latest format.
Status CacheImageExtras(hid_t file, bool latest) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle g, Check(H5Gopen2(file, "/g", H5P_DEFAULT), "/g"));
  for (int i = 0; i < 12; ++i) {
    KERCHUNK_RETURN_IF_ERROR(IntAttribute(g.get(), fmt::format("attr_{:02}", i), i * 3 - 7));
  }
  KERCHUNK_RETURN_IF_ERROR(IntAttribute(file, "root_attribute", 42));
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle many, Check(H5Gcreate2(file, "/many", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "many"));
  for (int i = 0; i < 12; ++i) {
    const std::string name = fmt::format("/many/sub_{:02}", i);
    KERCHUNK_ASSIGN_OR_RETURN(
        Handle sub,
        Check(H5Gcreate2(file, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), name));
    KERCHUNK_RETURN_IF_ERROR(IntAttribute(sub.get(), "index", i));
  }
  KERCHUNK_RETURN_IF_ERROR(SmallDataset(file, "/contiguous", H5D_CONTIGUOUS));
  KERCHUNK_RETURN_IF_ERROR(SmallDataset(file, latest ? "/compact" : "/g/h/compact", H5D_COMPACT));
  return VlenStrings(file, latest ? "/g/strings" : "/g/h/strings");
}

}  // namespace

Status WriteHdf5File(const std::string& path, const std::vector<ChunkedDatasetSpec>& datasets,
                     const Hdf5FileOptions& options) {
  hdf5::SilenceLibraryErrors();
  KERCHUNK_ASSIGN_OR_RETURN(Handle fapl, Check(H5Pcreate(H5P_FILE_ACCESS), "fapl"));
  if (options.latest_format) {
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST), "libver"));
  }
  if (options.cache_image) {
    H5AC_cache_image_config_t image{H5AC__CURR_CACHE_IMAGE_CONFIG_VERSION, true, false,
                                    H5AC__CACHE_IMAGE__ENTRY_AGEOUT__NONE};
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Pset_mdc_image_config(fapl.get(), &image), "metadata cache image"));
  }
  KERCHUNK_ASSIGN_OR_RETURN(Handle fcpl, Check(H5Pcreate(H5P_FILE_CREATE), "fcpl"));
  if (options.user_block) {
    KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_userblock(fcpl.get(), options.user_block), "user block"));
  }
  if (options.shared_attributes) {
    KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_shared_mesg_nindexes(fcpl.get(), 1), "SOHM indexes"));
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Pset_shared_mesg_index(fcpl.get(), 0, H5O_SHMESG_ATTR_FLAG, 1), "SOHM index"));
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle file, Check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()), path));
  for (const auto& spec : datasets) {
    KERCHUNK_ASSIGN_OR_RETURN(Handle dset, CreateDataset(file.get(), spec));
    KERCHUNK_RETURN_IF_ERROR(WriteChunks(dset.get(), spec).Annotate(path));
  }
  if (options.extra) KERCHUNK_RETURN_IF_ERROR(options.extra(file.get()).Annotate(path));
  return OkStatus();
}

Status WriteHdf5File(const std::string& path, const std::vector<ChunkedDatasetSpec>& datasets,
                     bool latest_format, hsize_t user_block) {
  return WriteHdf5File(path, datasets,
                       Hdf5FileOptions{.latest_format = latest_format, .user_block = user_block});
}

Result<std::string> WriteBTreeV1Fixture(const std::filesystem::path& dir) {
  std::string path = (dir / "btree_v1.h5").string();
  std::vector<ChunkedDatasetSpec> d(6);
  d[0] = {.name = "/d1", .dims = {10000}, .chunk = {7}};
  d[1] = {.name = "/d2_deflate_shuffle",
          .dims = {200, 150},
          .chunk = {7, 11},
          .file_type = H5T_IEEE_F32LE,
          .shuffle = true,
          .deflate = true,
          .write_chunk = EveryNth(5, 2)};
  d[2] = {.name = "/d3_fletcher_be",
          .dims = {20, 30, 40},
          .chunk = {3, 4, 5},
          .file_type = H5T_STD_I16BE,
          .fletcher32 = true};
  d[3] = {.name = "/d4", .dims = {6, 7, 8, 9}, .chunk = {2, 3, 3, 4}, .file_type = H5T_STD_U8LE};
  d[4] = {.name = "/g/unlimited",
          .dims = {50, 40},
          .max_dims = {U, U},
          .chunk = {8, 8},
          .write_chunk = EveryNth(4, 3)};
  d[5] = {.name = "/empty", .dims = {100}, .chunk = {10}, .write_chunk = [](uint64_t) {
            return false;
          }};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/false));
  return path;
}

Result<std::string> WriteSingleChunkFixture(const std::filesystem::path& dir) {
  std::string path = (dir / "single_chunk.h5").string();
  std::vector<ChunkedDatasetSpec> d(3);
  d[0] = {.name = "/single", .dims = {10, 20}, .chunk = {10, 20}};
  d[1] = {.name = "/single_deflate",
          .dims = {30, 20},
          .chunk = {30, 20},
          .file_type = H5T_IEEE_F64BE,
          .shuffle = true,
          .deflate = true};
  d[2] = {.name = "/single_unwritten", .dims = {5}, .chunk = {5}, .write_chunk = [](uint64_t) {
            return false;
          }};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true));
  return path;
}

Result<std::string> WriteImplicitFixture(const std::filesystem::path& dir) {
  std::string path = (dir / "implicit.h5").string();
  std::vector<ChunkedDatasetSpec> d(3);
  d[0] = {.name = "/implicit", .dims = {100, 60}, .chunk = {10, 7}, .early_allocation = true};
  d[1] = {.name = "/implicit_max",
          .dims = {30, 20},
          .max_dims = {50, 40},
          .chunk = {7, 6},
          .early_allocation = true,
          .write_chunk = EveryNth(3, 0)};
  d[2] = {.name = "/implicit_3d_be",
          .dims = {9, 10, 11},
          .chunk = {4, 5, 6},
          .file_type = H5T_STD_I64BE,
          .early_allocation = true};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true));
  return path;
}

Result<std::string> WriteFixedArrayFixture(const std::filesystem::path& dir) {
  std::string path = (dir / "fixed_array.h5").string();
  std::vector<ChunkedDatasetSpec> d(6);
  d[0] = {.name = "/fa_small", .dims = {100}, .chunk = {10}, .write_chunk = EveryNth(4, 1)};
  d[1] = {.name = "/fa_paged", .dims = {3000}, .chunk = {1}, .file_type = H5T_STD_U8LE};
  d[2] = {
      .name = "/fa_sparse_pages",
      .dims = {5000},
      .chunk = {1},
      .file_type = H5T_STD_U8LE,
      .write_chunk = [](uint64_t i) { return i < 1024 || (i >= 3072 && i < 4096 && i % 7 == 0); }};
  d[3] = {.name = "/fa_deflate_2d",
          .dims = {100, 100},
          .chunk = {3, 3},
          .deflate = true,
          .write_chunk = EveryNth(9, 4)};
  d[4] = {.name = "/fa_max",
          .dims = {30, 20},
          .max_dims = {64, 41},
          .chunk = {7, 6},
          .write_chunk = EveryNth(2, 1)};
  d[5] = {.name = "/fa_fletcher_be_3d",
          .dims = {12, 10, 8},
          .chunk = {5, 3, 2},
          .file_type = H5T_IEEE_F32BE,
          .fletcher32 = true};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true));
  return path;
}

Result<std::string> WriteExtensibleArrayFixture(const std::filesystem::path& dir) {
  std::string path = (dir / "extensible_array.h5").string();
  std::vector<ChunkedDatasetSpec> d(6);
  d[0] = {.name = "/ea_small", .dims = {12}, .max_dims = {U}, .chunk = {4}};
  d[1] = {.name = "/ea", .dims = {3000}, .max_dims = {U}, .chunk = {1}, .file_type = H5T_STD_U8LE};
  d[2] = {.name = "/ea_deflate",
          .dims = {400, 6},
          .max_dims = {U, 6},
          .chunk = {2, 4},
          .shuffle = true,
          .deflate = true,
          .write_chunk = EveryNth(6, 5)};
  d[3] = {.name = "/ea_unlimited_last", .dims = {20, 400}, .max_dims = {20, U}, .chunk = {4, 3}};
  d[4] = {.name = "/ea_sparse",
          .dims = {2000},
          .max_dims = {U},
          .chunk = {1},
          .write_chunk = [](uint64_t i) { return i == 3 || i == 700 || i == 1999; }};
  d[5] = {.name = "/g/ea_3d_be",
          .dims = {7, 40, 5},
          .max_dims = {10, U, 5},
          .chunk = {3, 2, 5},
          .file_type = H5T_STD_U16BE,
          .fletcher32 = true};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true));
  return path;
}

Result<std::string> WriteBTreeV2Fixture(const std::filesystem::path& dir) {
  std::string path = (dir / "btree_v2.h5").string();
  std::vector<ChunkedDatasetSpec> d(4);
  d[0] = {.name = "/bt2_small", .dims = {10, 10}, .max_dims = {U, U}, .chunk = {4, 4}};
  d[1] = {.name = "/bt2",
          .dims = {60, 60},
          .max_dims = {U, U},
          .chunk = {1, 1},
          .file_type = H5T_STD_U8LE};
  d[2] = {.name = "/bt2_deflate",
          .dims = {70, 70},
          .max_dims = {U, U},
          .chunk = {1, 1},
          .deflate = true};
  d[3] = {.name = "/bt2_3d_sparse",
          .dims = {20, 9, 14},
          .max_dims = {U, 9, U},
          .chunk = {3, 2, 4},
          .file_type = H5T_IEEE_F64BE,
          .write_chunk = EveryNth(3, 2)};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true));
  return path;
}

Result<std::string> WriteUserBlockFixture(const std::filesystem::path& dir) {
  std::string path = (dir / "user_block.h5").string();
  std::vector<ChunkedDatasetSpec> d(2);
  d[0] = {.name = "/fa", .dims = {50, 50}, .chunk = {8, 8}, .deflate = true};
  d[1] = {.name = "/ea", .dims = {100}, .max_dims = {U}, .chunk = {3}};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, /*latest_format=*/true, /*user_block=*/512));
  return path;
}

Result<std::string> WriteCacheImageFixture(const std::filesystem::path& dir, bool latest) {
  const std::string path =
      (dir / (latest ? "cache_image_latest.h5" : "cache_image_v1.h5")).string();
  std::vector<ChunkedDatasetSpec> d;
  if (latest) {
    d.push_back({.name = "/single", .dims = {6, 5}, .chunk = {6, 5}});
    d.push_back(
        {.name = "/g/implicit", .dims = {20, 9}, .chunk = {6, 4}, .early_allocation = true});
    d.push_back({.name = "/g/fa",
                 .dims = {40, 30},
                 .chunk = {7, 6},
                 .deflate = true,
                 .write_chunk = EveryNth(5, 3)});
    d.push_back({.name = "/g/ea",
                 .dims = {1500},
                 .max_dims = {U},
                 .chunk = {1},
                 .file_type = H5T_STD_U8LE,
                 .write_chunk = EveryNth(7, 6)});
    d.push_back({.name = "/bt2",
                 .dims = {20, 20},
                 .max_dims = {U, U},
                 .chunk = {2, 3},
                 .file_type = H5T_STD_U8LE});
  } else {
    d.push_back({.name = "/g/bt1_deep", .dims = {3000}, .chunk = {4}, .file_type = H5T_STD_U8LE});
    d.push_back({.name = "/g/h/bt1_2d",
                 .dims = {30, 20},
                 .chunk = {4, 6},
                 .shuffle = true,
                 .deflate = true,
                 .write_chunk = EveryNth(4, 1)});
  }
  Hdf5FileOptions options{.latest_format = latest,
                          .user_block = latest ? 0u : 512u,
                          .cache_image = true,
                          .shared_attributes = !latest,
                          .extra = [latest](hid_t file) { return CacheImageExtras(file, latest); }};
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(path, d, options));
  return path;
}

Result<std::vector<std::string>> WriteAllIndexFixtures(const std::filesystem::path& dir) {
  std::vector<std::string> paths;
  for (auto* write : {&WriteBTreeV1Fixture, &WriteSingleChunkFixture, &WriteImplicitFixture,
                      &WriteFixedArrayFixture, &WriteExtensibleArrayFixture, &WriteBTreeV2Fixture,
                      &WriteUserBlockFixture}) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string path, (*write)(dir));
    paths.push_back(path);
  }
  return paths;
}

Result<std::string> WriteSmallIndexFixture(const std::filesystem::path& dir,
                                           const std::string& index_type) {
  ChunkedDatasetSpec s{.name = "/data"};
  bool latest = true;
  if (index_type == "btree1") {
    s.dims = {300};
    s.chunk = {2};
    s.file_type = H5T_STD_U8LE;
    s.write_chunk = EveryNth(5, 1);
    latest = false;
  } else if (index_type == "single") {
    s.dims = {4, 5};
    s.chunk = {4, 5};
    s.deflate = true;
  } else if (index_type == "implicit") {
    s.dims = {10, 9};
    s.chunk = {3, 4};
    s.file_type = H5T_STD_U8LE;
    s.early_allocation = true;
  } else if (index_type == "farray") {
    s.dims = {20, 9};
    s.chunk = {3, 4};
    s.file_type = H5T_STD_U8LE;
    s.deflate = true;
    s.write_chunk = EveryNth(4, 2);
  } else if (index_type == "farray_paged") {
    s.dims = {1100};
    s.chunk = {1};
    s.file_type = H5T_STD_U8LE;
    s.write_chunk = [](uint64_t i) { return i < 40 || i > 1090; };
  } else if (index_type == "earray") {
    s.dims = {400};
    s.max_dims = {U};
    s.chunk = {1};
    s.file_type = H5T_STD_U8LE;
    s.write_chunk = EveryNth(3, 1);
  } else if (index_type == "cache_image") {
    s.dims = {40};
    s.max_dims = {U};
    s.chunk = {4};
    s.file_type = H5T_STD_U8LE;
  } else if (index_type == "btree2") {
    s.dims = {30, 20};
    s.max_dims = {U, U};
    s.chunk = {2, 2};
    s.file_type = H5T_STD_U8LE;
    s.deflate = true;
  } else {
    return InvalidArgumentError("unknown index type \"{}\"", index_type);
  }
  std::string path = (dir / ("small_" + index_type + ".h5")).string();
  KERCHUNK_RETURN_IF_ERROR(WriteHdf5File(
      path, {s},
      Hdf5FileOptions{.latest_format = latest, .cache_image = index_type == "cache_image"}));
  return path;
}

}  // namespace kerchunk::testing
