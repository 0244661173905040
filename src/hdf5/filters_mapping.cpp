#include "hdf5/filters_mapping.h"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "kerchunk/hdf5/h5_library.h"

namespace kerchunk::hdf5::internal {
namespace {

// Registered ids of the filters that kerchunk maps or names
// (https://github.com/HDFGroup/hdf5_plugins docs/RegisteredFilterPlugins.md).
constexpr H5Z_filter_t kBlosc = 32001;
constexpr H5Z_filter_t kZstd = 32015;

struct Filter {
  H5Z_filter_t id = 0;
  unsigned flags = 0;
  std::vector<unsigned> cd_values;
};

Result<Filter> ReadFilter(hid_t dcpl, unsigned index) {
  Filter f;
  std::array<unsigned, 32> cd{};
  size_t cd_count = cd.size();
  std::array<char, 64> name{};
  f.id = H5Pget_filter2(dcpl, index, &f.flags, &cd_count, cd.data(), name.size(), name.data(),
                        nullptr);
  if (f.id < 0) return LibraryError(fmt::format("cannot read filter {} of the pipeline", index));
  // cd_count is the number of values the filter has, which may exceed the buffer.
  if (cd_count > cd.size()) {
    std::vector<unsigned> all(cd_count);
    size_t n = cd_count;
    if (H5Pget_filter2(dcpl, index, &f.flags, &n, all.data(), 0, nullptr, nullptr) < 0) {
      return LibraryError(fmt::format("cannot read filter {} of the pipeline", index));
    }
    f.cd_values = std::move(all);
  } else {
    f.cd_values.assign(cd.begin(), cd.begin() + cd_count);
  }
  return f;
}

json::Value NamedConfig(std::string_view id) {
  json::Value v = json::Value::MakeObject();
  v.Set("id", json::Value::String(std::string(id)));
  return v;
}

// Blosc's HDF5 filter stores: [0] filter revision, [1] blosc version, [2] type size, [3] chunk
// bytes, [4] clevel, [5] shuffle, [6] compressor code. kerchunk maps [3] to numcodecs'
// "blocksize" (numcodecs ignores it when decoding: blosc frames are self-describing). Writers
// older than compressor selection (PyTables) store only 6 values, meaning blosclz; kerchunk
// 0.2.2 crashed on those.
json::Value BloscConfig(const std::vector<unsigned>& cd) {
  static constexpr std::array<std::string_view, 6> kNames = {"blosclz", "lz4",  "lz4hc",
                                                             "snappy",  "zlib", "zstd"};
  auto at = [&](size_t i, unsigned fallback) { return i < cd.size() ? cd[i] : fallback; };
  const unsigned code = at(6, 0);
  json::Value v = NamedConfig("blosc");
  v.Set("blocksize", json::Value::Uint(at(3, 0)));
  v.Set("clevel", json::Value::Uint(at(4, 5)));
  v.Set("cname", json::Value::String(std::string(code < kNames.size() ? kNames[code] : "")));
  v.Set("shuffle", json::Value::Uint(at(5, 1)));
  return v;
}

}  // namespace

std::string FilterName(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE:
      return "deflate";
    case H5Z_FILTER_SHUFFLE:
      return "shuffle";
    case H5Z_FILTER_FLETCHER32:
      return "fletcher32";
    case H5Z_FILTER_SZIP:
      return "szip";
    case H5Z_FILTER_NBIT:
      return "nbit";
    case H5Z_FILTER_SCALEOFFSET:
      return "scaleoffset";
    case 305:
      return "lzo";
    case 307:
      return "bzip2";
    case 32000:
      return "lzf";
    case kBlosc:
      return "blosc";
    case 32002:
      return "mafisc";
    case 32004:
      return "lz4";
    case 32008:
      return "bitshuffle";
    case 32013:
      return "zfp";
    case kZstd:
      return "zstd";
    case 32017:
      return "sz";
    case 32019:
      return "jpeg";
    case 32022:
      return "bitgroom";
    case 32023:
      return "granular bitround";
    case 32026:
      return "blosc2";
    default:
      return "unknown";
  }
}

Result<FilterPipeline> DescribeFilters(hid_t dcpl, size_t element_size) {
  FilterPipeline out;
  const int count = H5Pget_nfilters(dcpl);
  if (count < 0) return LibraryError("cannot read the filter pipeline");
  out.count = static_cast<unsigned>(count);
  for (unsigned i = 0; i < out.count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(Filter f, ReadFilter(dcpl, i));
    if (out.fletcher32) {
      // The checksum is only at the end of the stored bytes when fletcher32 runs last.
      out.unsupported_reason = fmt::format(
          "filter {} (id {}) follows fletcher32, so the checksum is not at the end of chunks",
          FilterName(f.id), f.id);
      return out;
    }
    switch (f.id) {
      case H5Z_FILTER_DEFLATE: {
        json::Value v = NamedConfig("zlib");
        v.Set("level", json::Value::Uint(f.cd_values.empty() ? 6 : f.cd_values[0]));
        out.filters.Push(std::move(v));
        break;
      }
      case H5Z_FILTER_SHUFFLE: {
        json::Value v = NamedConfig("shuffle");
        v.Set("elementsize", json::Value::Uint(element_size));
        out.filters.Push(std::move(v));
        break;
      }
      case H5Z_FILTER_FLETCHER32:
        out.fletcher32 = true;
        break;
      case kBlosc:
        out.filters.Push(BloscConfig(f.cd_values));
        break;
      case kZstd: {
        json::Value v = NamedConfig("zstd");
        v.Set("level", json::Value::Uint(f.cd_values.empty() ? 0 : f.cd_values[0]));
        out.filters.Push(std::move(v));
        break;
      }
      default:
        out.unsupported_reason =
            fmt::format("filter {} (id {}) has no numcodecs equivalent", FilterName(f.id), f.id);
        return out;
    }
  }
  return out;
}

}  // namespace kerchunk::hdf5::internal
