#include "kerchunk/netcdf3/attributes.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/byte_reader.h"

namespace kerchunk::netcdf3 {
namespace {

constexpr std::string_view kFillValue = "_FillValue";

template <typename T>
T LoadBigEndian(const char* p) {
  using U = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t,
                         std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  U u;
  std::memcpy(&u, p, sizeof(U));
  if constexpr (std::endian::native == std::endian::little) u = ByteSwap(u);
  return std::bit_cast<T>(u);
}

// The length of the maximal valid prefix of a UTF-8 sequence starting at s[i] (Unicode's
// "maximal subpart" rule, which Python's decoder applies with errors="replace"), and whether it is
// a complete character.
std::pair<size_t, bool> Utf8Sequence(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return {1, true};
  int extra;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    extra = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    extra = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    extra = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return {1, false};
  }
  size_t n = 1;
  for (int k = 0; k < extra; ++k, ++n) {
    if (i + n >= s.size()) return {n, false};
    unsigned char cc = byte(i + n);
    unsigned char range_lo = k == 0 ? lo : 0x80, range_hi = k == 0 ? hi : 0xBF;
    if (cc < range_lo || cc > range_hi) return {n, false};
  }
  return {n, true};
}

// Whether byte c is ASCII and not NUL: such bytes are kept as they are.
bool IsPlainAscii(char c) { return static_cast<unsigned char>(c) - 1u < 0x7Fu; }

// Whether all 8 bytes of `w` are plain ASCII (no high bit, no zero byte).
bool IsPlainAsciiWord(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  return (w & kHigh) == 0 && ((w - kOnes) & ~w & kHigh) == 0;
}

// The end of the run of plain ASCII bytes that starts at raw[i], looked at 8 bytes at a time.
size_t PlainAsciiRunEnd(std::string_view raw, size_t i) {
  for (uint64_t word; i + 8 <= raw.size(); i += 8) {
    std::memcpy(&word, raw.data() + i, 8);
    if (!IsPlainAsciiWord(word)) break;
  }
  while (i < raw.size() && IsPlainAscii(raw[i])) ++i;
  return i;
}

// The end of the run of NUL bytes that starts at raw[i] (text written into a fixed-size buffer
// keeps the buffer's padding).
size_t NulRunEnd(std::string_view raw, size_t i) {
  for (uint64_t word; i + 8 <= raw.size(); i += 8) {
    std::memcpy(&word, raw.data() + i, 8);
    if (word != 0) break;
  }
  while (i < raw.size() && raw[i] == '\0') ++i;
  return i;
}

// netCDF4-python: value.tobytes().decode("utf-8", errors="replace").replace("\x00", "").
// Attribute text (CMIP histories, references) is kilobytes of mostly plain ASCII, which is
// appended a run at a time; only the other bytes are looked at one UTF-8 sequence at a time.
std::string DecodeText(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size();) {
    const size_t run_end = PlainAsciiRunEnd(raw, i);
    out.append(raw.data() + i, run_end - i);
    i = NulRunEnd(raw, run_end);  // dropped
    if (i == raw.size()) break;
    if (IsPlainAscii(raw[i])) continue;
    auto [n, complete] = Utf8Sequence(raw, i);  // raw[i] is a byte from 0x80 up
    out.append(complete ? raw.substr(i, n) : std::string_view("\xEF\xBF\xBD"));  // or U+FFFD
    i += n;
  }
  return out;
}

}  // namespace

json::Value AttributeElementJson(const Attribute& a, uint64_t i) {
  const char* p = a.values.data() + i * TypeSize(a.type);
  switch (a.type) {
    case NcType::kByte:
      return json::Value::Int(LoadBigEndian<int8_t>(p));
    case NcType::kChar:
      return json::Value::Int(LoadBigEndian<uint8_t>(p));
    case NcType::kShort:
      return json::Value::Int(LoadBigEndian<int16_t>(p));
    case NcType::kInt:
      return json::Value::Int(LoadBigEndian<int32_t>(p));
    case NcType::kFloat:
      return json::Value::Double(LoadBigEndian<float>(p));
    case NcType::kDouble:
      return json::Value::Double(LoadBigEndian<double>(p));
    case NcType::kUbyte:
      return json::Value::Int(LoadBigEndian<uint8_t>(p));
    case NcType::kUshort:
      return json::Value::Int(LoadBigEndian<uint16_t>(p));
    case NcType::kUint:
      return json::Value::Int(LoadBigEndian<uint32_t>(p));
    case NcType::kInt64:
      return json::Value::Int(LoadBigEndian<int64_t>(p));
    case NcType::kUint64:
      return json::Value::Uint(LoadBigEndian<uint64_t>(p));
  }
  return json::Value();
}

json::Value AttributeJson(const Attribute& a) {
  if (a.type == NcType::kChar) return json::Value::String(DecodeText(a.values));
  if (a.count == 1) return AttributeElementJson(a, 0);
  json::Value list = json::Value::MakeArray();
  for (uint64_t i = 0; i < a.count; ++i) list.Push(AttributeElementJson(a, i));
  return list;
}

json::Value AttributesJson(const std::vector<Attribute>& attributes) {
  json::Value out = json::Value::MakeObject();
  for (const auto& a : attributes) out.Set(a.name, AttributeJson(a));
  return out;
}

json::Value FillValueJson(const Variable& v) {
  for (const auto& a : v.attributes) {
    if (a.name != kFillValue) continue;
    if (a.type != v.type || a.count != 1) return json::Value();
    return EncodeFillValue(a.values, NumpyDtype(v.type));
  }
  return json::Value();
}

json::Value VariableAttributesJson(const Header& header, const Variable& v) {
  bool fill_used = !FillValueJson(v).is_null();
  json::Value out = json::Value::MakeObject();
  for (const auto& a : v.attributes) {
    if (fill_used && a.name == kFillValue) continue;
    out.Set(a.name, AttributeJson(a));
  }
  json::Value dims = json::Value::MakeArray();
  for (uint64_t id : v.dim_ids) dims.Push(json::Value::String(header.dimensions[id].name));
  out.Set("_ARRAY_DIMENSIONS", std::move(dims));
  return out;
}

}  // namespace kerchunk::netcdf3
