#include "combine/synthetic_parts.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <fstream>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::testing {
namespace {

void StoreValue(std::string& out, std::string_view dtype, double v) {
  char kind = dtype[1];
  size_t size = static_cast<size_t>(dtype[2] - '0');
  uint64_t bits = 0;
  if (kind == 'f') {
    bits = size == 8 ? std::bit_cast<uint64_t>(v) : std::bit_cast<uint32_t>(static_cast<float>(v));
  } else {
    bits = static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  for (size_t k = 0; k < size; ++k) {
    size_t shift = 8 * (dtype[0] == '>' ? size - 1 - k : k);
    out += static_cast<char>((bits >> shift) & 0xFF);
  }
}

double LoadValue(std::string_view bytes, std::string_view dtype, size_t i) {
  char kind = dtype[1];
  size_t size = static_cast<size_t>(dtype[2] - '0');
  uint64_t bits = 0;
  for (size_t k = 0; k < size; ++k) {
    size_t shift = 8 * (dtype[0] == '>' ? size - 1 - k : k);
    bits |= uint64_t{static_cast<uint8_t>(bytes[i * size + k])} << shift;
  }
  if (kind == 'f') {
    return size == 8 ? std::bit_cast<double>(bits)
                     : std::bit_cast<float>(static_cast<uint32_t>(bits));
  }
  if (size < 8 && kind == 'i') {
    uint64_t sign = uint64_t{1} << (8 * size - 1);
    bits = (bits ^ sign) - sign;
  }
  return static_cast<double>(static_cast<int64_t>(bits));
}

std::string Zarray(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                   std::string_view dtype, std::string_view fill, std::string_view compressor) {
  return fmt::format(
      R"({{"chunks":[{}],"compressor":{},"dtype":"{}","fill_value":{},"filters":null,)"
      R"("order":"C","shape":[{}],"zarr_format":2}})",
      fmt::join(chunks, ","), compressor, dtype, fill, fmt::join(shape, ","));
}

void AddCoordinate(const PartSpec& spec, ReferenceSet& r) {
  const uint64_t n = spec.times.size();
  std::string raw;
  for (double t : spec.times) StoreValue(raw, spec.time_dtype, t);
  uint64_t extent = spec.coordinate_chunk ? spec.coordinate_chunk : std::max<uint64_t>(n, 1);
  bool in_file = !spec.coordinate_file.empty();
  std::string compressor = in_file ? R"({"id":"zlib","level":1})" : "null";
  std::string zarray = Zarray({n}, {extent}, spec.time_dtype, "null", compressor);
  r.SetText("time/.zarray", zarray);
  std::string attrs =
      fmt::format(R"({{"_ARRAY_DIMENSIONS":["time"],"units":"{}"{}}})", spec.units,
                  spec.calendar.empty() ? "" : ",\"calendar\":\"" + spec.calendar + "\"");
  r.SetText("time/.zattrs", attrs);
  ArrayRefs& a = r.AddArray("time", *ChunkGrid::Make({n}, {extent}));
  auto pipeline = *codecs::Pipeline::FromZarray(*ZarrArrayMeta::Parse(zarray));
  const size_t item = raw.size() / std::max<uint64_t>(n, 1);
  std::ofstream file;
  if (in_file) file.open(spec.coordinate_file, std::ios::binary);
  uint64_t offset = 0;
  for (uint64_t c = 0; c * extent < n; ++c) {
    std::string chunk = raw.substr(c * extent * item, extent * item);
    chunk.resize(extent * item, '\0');  // zarr stores edge chunks at full size
    if (!in_file) {
      a.AddInline(c, chunk, true);
      continue;
    }
    std::string stored = *pipeline.Encode(chunk);
    file.write(stored.data(), static_cast<std::streamsize>(stored.size()));
    a.AddRange(c, r.urls.Intern(spec.coordinate_file), offset, stored.size());
    offset += stored.size();
  }
}

}  // namespace

ReferenceSet MakePart(const PartSpec& spec) {
  ReferenceSet r;
  uint32_t url = r.urls.Intern(spec.url);
  r.SetText(".zgroup", R"({"zarr_format":2})");
  r.SetText(".zattrs", fmt::format(R"({{"source":"{}"}})", spec.url));
  AddCoordinate(spec, r);
  const uint64_t n = spec.times.size();
  r.SetText("tas/.zarray", Zarray({n, spec.nlat}, {spec.time_chunk, spec.nlat}, spec.tas_dtype,
                                  spec.fill_value, "null"));
  r.SetText("tas/.zattrs",
            R"({"_ARRAY_DIMENSIONS":["time","lat"],"units":"K")" + spec.tas_attributes + "}");
  ArrayRefs& tas =
      r.AddArray("tas", *ChunkGrid::Make({n, spec.nlat}, {spec.time_chunk, spec.nlat}));
  for (uint64_t k = 0; k * spec.time_chunk < n; ++k) tas.AddRange(k, url, 1000 + 16 * k, 16);
  r.SetText("lat/.zarray", Zarray({spec.nlat}, {spec.nlat}, "<f8", "null", "null"));
  r.SetText("lat/.zattrs", R"({"_ARRAY_DIMENSIONS":["lat"]})");
  ArrayRefs& lat = r.AddArray("lat", *ChunkGrid::Make({spec.nlat}, {spec.nlat}));
  lat.AddRange(0, url, spec.lat_offset, 8 * spec.nlat);
  EXPECT_TRUE(r.Finalize().ok());
  return r;
}

std::vector<double> CoordinateValues(const ReferenceSet& refs, const std::string& path) {
  auto meta = ZarrArrayMeta::Parse(EntryText(refs, path + "/.zarray"));
  EXPECT_TRUE(meta.ok());
  const ArrayRefs* a = refs.FindArray(path);
  std::vector<double> out;
  if (!meta.ok() || !a) return out;
  EXPECT_EQ(meta->chunks, meta->shape.empty() || meta->shape[0] == 0 ? std::vector<uint64_t>{1}
                                                                     : meta->shape);  // one chunk
  EXPECT_TRUE(meta->compressor.is_null());
  if (a->empty()) return out;
  ChunkRef c = a->Get(0);
  EXPECT_EQ(c.kind, RefKind::kInline);
  for (uint64_t i = 0; i < meta->shape[0]; ++i) out.push_back(LoadValue(c.data, meta->dtype, i));
  return out;
}

std::string EntryText(const ReferenceSet& refs, const std::string& key) {
  const Entry* e = refs.FindEntry(key);
  return e ? e->value.data : std::string();
}

}  // namespace kerchunk::testing
