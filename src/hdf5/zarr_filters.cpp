// numcodecs configurations for HDF5 filter pipelines; see zarr_filters.h.
#include "hdf5/zarr_filters.h"

#include <fmt/format.h>

#include <array>

namespace kerchunk::hdf5::internal {
namespace {

// Registered ids of the filters that kerchunk maps or names
// (https://github.com/HDFGroup/hdf5_plugins docs/RegisteredFilterPlugins.md).
constexpr int kBlosc = 32001;
constexpr int kZstd = 32015;

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
json::Value BloscConfig(const std::vector<uint32_t>& cd) {
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

std::string FilterName(int id) {
  switch (id) {
    case 1:
      return "deflate";
    case 2:
      return "shuffle";
    case 3:
      return "fletcher32";
    case 4:
      return "szip";
    case 5:
      return "nbit";
    case 6:
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

FilterPipeline MapFilters(const std::vector<FilterDescription>& filters, size_t element_size) {
  FilterPipeline out;
  out.count = static_cast<unsigned>(filters.size());
  for (const FilterDescription& f : filters) {
    const std::vector<uint32_t>& cd_values = f.client_data;
    if (out.fletcher32) {
      // The checksum is only at the end of the stored bytes when fletcher32 runs last.
      out.unsupported_reason = fmt::format(
          "filter {} (id {}) follows fletcher32, so the checksum is not at the end of chunks",
          FilterName(f.id), f.id);
      return out;
    }
    switch (f.id) {
      case 1: {
        json::Value v = NamedConfig("zlib");
        v.Set("level", json::Value::Uint(cd_values.empty() ? 6 : cd_values[0]));
        out.filters.Push(std::move(v));
        break;
      }
      case 2: {
        json::Value v = NamedConfig("shuffle");
        v.Set("elementsize", json::Value::Uint(element_size));
        out.filters.Push(std::move(v));
        break;
      }
      case 3:
        out.fletcher32 = true;
        break;
      case kBlosc:
        out.filters.Push(BloscConfig(cd_values));
        break;
      case kZstd: {
        json::Value v = NamedConfig("zstd");
        v.Set("level", json::Value::Uint(cd_values.empty() ? 0 : cd_values[0]));
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
