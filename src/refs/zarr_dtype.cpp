// numpy dtype strings: checked as numpy and zarr read them (zarr/meta.py decode_fill_value,
// zarr 2.13), as numeric elements, as item sizes, and fill values encoded as zarr writes them.
#include "refs/zarr_dtype.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <set>

#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::internal {
namespace {

using json::Value;

// Datetime units numpy accepts in "M8[unit]" / "m8[unit]", optionally with a multiplier.
bool IsDatetimeUnit(std::string_view unit) {
  size_t digits = 0;
  while (digits < unit.size() && unit[digits] >= '0' && unit[digits] <= '9') ++digits;
  unit.remove_prefix(digits);
  static const std::set<std::string_view> kUnits = {"Y",  "M",  "W",  "D",  "h",  "m", "s",
                                                    "ms", "us", "ns", "ps", "fs", "as"};
  return kUnits.contains(unit);
}

Status BadDtype(std::string_view text, std::string_view why) {
  return InvalidArgumentError("dtype \"{}\": {}", text, why);
}

Result<DtypeInfo> ParseSimpleDtype(std::string_view text) {
  if (text.size() < 2) return BadDtype(text, "expected a byte order, a kind and a size");
  DtypeInfo d;
  d.order = text[0];
  if (d.order != '<' && d.order != '>' && d.order != '|' && d.order != '=') {
    return BadDtype(text, "expected a byte order '<', '>' or '|' first");
  }
  d.kind = text[1];
  std::string_view rest = text.substr(2);
  if (d.kind == 'M' || d.kind == 'm') {
    if (!rest.starts_with("8")) return BadDtype(text, "a datetime has 8 bytes");
    rest.remove_prefix(1);
    if (!rest.empty() && !(rest.front() == '[' && rest.back() == ']' &&
                           IsDatetimeUnit(rest.substr(1, rest.size() - 2)))) {
      return BadDtype(text, "expected a datetime unit such as [ns] or [D]");
    }
    d.itemsize = 8;
    return d;
  }
  if (d.kind == 'O') {
    if (!rest.empty() && rest != "8") return BadDtype(text, "expected \"|O\"");
    d.itemsize = 0;
    return d;
  }
  uint64_t size = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), size);
  if (rest.empty() || ec != std::errc() || end != rest.data() + rest.size()) {
    return BadDtype(text, "expected a decimal item size after the kind");
  }
  auto one_of = [size](std::initializer_list<uint64_t> sizes) {
    for (uint64_t s : sizes) {
      if (s == size) return true;
    }
    return false;
  };
  switch (d.kind) {
    case 'b':
      if (size != 1) return BadDtype(text, "a boolean has 1 byte");
      break;
    case 'i':
    case 'u':
      if (!one_of({1, 2, 4, 8})) return BadDtype(text, "an integer has 1, 2, 4 or 8 bytes");
      break;
    case 'f':
      if (!one_of({2, 4, 8, 16})) return BadDtype(text, "a float has 2, 4, 8 or 16 bytes");
      break;
    case 'c':
      if (!one_of({8, 16, 32})) return BadDtype(text, "a complex number has 8, 16 or 32 bytes");
      break;
    case 'S':
    case 'V':
      if (size == 0) return BadDtype(text, "a byte string needs a size of at least 1");
      break;
    case 'U':
      if (size == 0) return BadDtype(text, "a unicode string needs a size of at least 1");
      if (!CheckedMul(size, 4)) return BadDtype(text, "size overflows");
      size *= 4;
      break;
    default:
      return BadDtype(text, "unknown kind (expected one of b i u f c m M S U V O)");
  }
  d.itemsize = size;
  return d;
}

Result<DtypeInfo> ParseRecordDtype(const Value& fields) {
  const std::string text = fields.Dump();
  if (fields.as_array().empty()) return BadDtype(text, "a record dtype needs at least one field");
  DtypeInfo d;
  d.record = true;
  std::set<std::string> names;
  for (const Value& field : fields.as_array()) {
    const auto& parts = field.as_array();
    if (!field.is_array() || (parts.size() != 2 && parts.size() != 3) || !parts[0].is_string()) {
      return BadDtype(text, "expected each field as [name, dtype] or [name, dtype, shape]");
    }
    if (!names.insert(parts[0].as_string()).second) {
      return BadDtype(text, "field \"" + parts[0].as_string() + "\" appears twice");
    }
    KERCHUNK_ASSIGN_OR_RETURN(DtypeInfo f, ParseDtype(parts[1]));
    if (f.kind == 'O') return BadDtype(text, "object fields are not supported by zarr v2");
    uint64_t size = f.itemsize;
    if (parts.size() == 3) {
      if (!parts[2].is_array()) return BadDtype(text, "a field shape must be a list of integers");
      for (const Value& n : parts[2].as_array()) {
        if (n.type() != Value::Type::kInt || n.as_int() < 0) {
          return BadDtype(text, "a field shape must be a list of non-negative integers");
        }
        auto product = CheckedMul(size, static_cast<uint64_t>(n.as_int()));
        if (!product) return BadDtype(text, "field size overflows");
        size = *product;
      }
    }
    auto sum = CheckedAdd(d.itemsize, size);
    if (!sum) return BadDtype(text, "record size overflows");
    d.itemsize = *sum;
  }
  return d;
}

bool IsIntegral(const Value& v) {
  if (v.type() == Value::Type::kInt || v.type() == Value::Type::kUint) return true;
  return v.type() == Value::Type::kDouble && std::isfinite(v.as_double()) &&
         std::trunc(v.as_double()) == v.as_double();
}

Status CheckIntegerFill(const Value& v, const DtypeInfo& d) {
  if (!IsIntegral(v)) {
    return InvalidArgumentError("fill_value {} is not an integer", v.Dump());
  }
  const unsigned bits = static_cast<unsigned>(d.itemsize * 8);
  if (d.kind == 'u') {
    if (v.type() == Value::Type::kUint)
      return bits == 64
                 ? OkStatus()
                 : InvalidArgumentError("fill_value {} does not fit in {} bits", v.Dump(), bits);
    const double x = v.as_double();
    if (x < 0 || (bits < 64 && x > std::ldexp(1.0, bits) - 1)) {
      return InvalidArgumentError("fill_value {} does not fit an unsigned {}-bit integer", v.Dump(),
                                  bits);
    }
    return OkStatus();
  }
  if (v.type() == Value::Type::kUint) {
    return InvalidArgumentError("fill_value {} does not fit a signed {}-bit integer", v.Dump(),
                                bits);
  }
  const double x = v.as_double();
  const double limit = std::ldexp(1.0, bits - 1);
  if (x < -limit || x > limit - 1) {
    return InvalidArgumentError("fill_value {} does not fit a signed {}-bit integer", v.Dump(),
                                bits);
  }
  return OkStatus();
}

bool IsFloatFill(const Value& v) {
  if (v.is_number()) return true;
  return v.is_string() &&
         (v.as_string() == "NaN" || v.as_string() == "Infinity" || v.as_string() == "-Infinity");
}

}  // namespace

Result<DtypeInfo> ParseDtype(const json::Value& dtype) {
  if (dtype.is_string()) return ParseSimpleDtype(dtype.as_string());
  if (dtype.is_array()) return ParseRecordDtype(dtype);
  return InvalidArgumentError("dtype {}: expected a string or a list of fields", dtype.Dump());
}

Status CheckFillValue(const json::Value& v, const DtypeInfo& d) {
  if (v.is_null() || d.kind == 'O') return OkStatus();
  if (d.record || d.kind == 'V') {
    if (!v.is_string() || !Base64Decode(v.as_string()).ok()) {
      return InvalidArgumentError(
          "fill_value {} is not base64 (zarr decodes void fill values "
          "with base64)",
          v.Dump());
    }
    return OkStatus();
  }
  switch (d.kind) {
    case 'f':
      if (!IsFloatFill(v)) {
        return InvalidArgumentError(
            "fill_value {} is neither a number nor \"NaN\", \"Infinity\" or \"-Infinity\"",
            v.Dump());
      }
      return OkStatus();
    case 'i':
    case 'u':
      return CheckIntegerFill(v, d);
    case 'b':
      if (v.type() != Value::Type::kBool && !v.is_number()) {
        return InvalidArgumentError("fill_value {} is not a boolean", v.Dump());
      }
      return OkStatus();
    case 'c':
      if (!v.is_array() || v.as_array().size() != 2 || !IsFloatFill(v.as_array()[0]) ||
          !IsFloatFill(v.as_array()[1])) {
        return InvalidArgumentError("fill_value {} is not a [real, imaginary] pair", v.Dump());
      }
      return OkStatus();
    case 'U':
      if (!v.is_string()) return InvalidArgumentError("fill_value {} is not a string", v.Dump());
      return OkStatus();
    case 'M':
    case 'm':
      if (!IsIntegral(v) && !v.is_string()) {
        return InvalidArgumentError("fill_value {} is not a datetime (integer or string)",
                                    v.Dump());
      }
      return OkStatus();
    default:  // 'S': zarr tries base64 and falls back to the value itself
      return OkStatus();
  }
}

// Numeric elements.

namespace {

bool HostIsBigEndian() { return std::endian::native == std::endian::big; }

}  // namespace

std::optional<NumericType> NumericType::Parse(std::string_view dtype) {
  if (dtype.size() != 3) return std::nullopt;
  NumericType t;
  switch (dtype[0]) {
    case '<':
      t.big_endian = false;
      break;
    case '>':
      t.big_endian = true;
      break;
    case '|':
    case '=':
      t.big_endian = HostIsBigEndian();
      break;
    default:
      return std::nullopt;
  }
  t.kind = dtype[1];
  if (t.kind != 'i' && t.kind != 'u' && t.kind != 'f') return std::nullopt;
  if (dtype[2] != '1' && dtype[2] != '2' && dtype[2] != '4' && dtype[2] != '8') {
    return std::nullopt;
  }
  t.size = static_cast<uint8_t>(dtype[2] - '0');
  if (t.kind == 'f' && t.size < 4) return std::nullopt;
  // "|" is only meaningful for one-byte types; numpy writes "<i2", never "|i2".
  if (dtype[0] == '|' && t.size != 1) return std::nullopt;
  return t;
}

namespace {

// One element of 2, 4 or 8 bytes in the given byte order, with one load (and a swap); the
// element loops below are what coordinate conversion and delta encoding run per value.
template <typename T>
uint64_t LoadFixed(const char* p, bool big_endian) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  if (big_endian != (std::endian::native == std::endian::big)) v = ByteSwap(v);
  return v;
}

template <typename T>
void StoreFixed(char* p, uint64_t bits, bool big_endian) {
  auto v = static_cast<T>(bits);
  if (big_endian != (std::endian::native == std::endian::big)) v = ByteSwap(v);
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace

uint64_t NumericType::LoadBits(const char* bytes, uint64_t i) const {
  switch (size) {
    case 8:
      return LoadFixed<uint64_t>(bytes + i * 8, big_endian);
    case 4:
      return LoadFixed<uint32_t>(bytes + i * 4, big_endian);
    case 2:
      return LoadFixed<uint16_t>(bytes + i * 2, big_endian);
    default:
      break;
  }
  const auto* p = reinterpret_cast<const unsigned char*>(bytes) + i * size;
  uint64_t v = 0;
  for (unsigned k = 0; k < size; ++k) {
    unsigned shift = 8 * (big_endian ? size - 1 - k : k);
    v |= uint64_t{p[k]} << shift;
  }
  return v;
}

void NumericType::StoreBits(char* bytes, uint64_t i, uint64_t bits) const {
  switch (size) {
    case 8:
      return StoreFixed<uint64_t>(bytes + i * 8, bits, big_endian);
    case 4:
      return StoreFixed<uint32_t>(bytes + i * 4, bits, big_endian);
    case 2:
      return StoreFixed<uint16_t>(bytes + i * 2, bits, big_endian);
    default:
      break;
  }
  auto* p = reinterpret_cast<unsigned char*>(bytes) + i * size;
  for (unsigned k = 0; k < size; ++k) {
    unsigned shift = 8 * (big_endian ? size - 1 - k : k);
    p[k] = static_cast<unsigned char>(bits >> shift);
  }
}

int64_t NumericType::LoadSigned(const char* bytes, uint64_t i) const {
  uint64_t bits = LoadBits(bytes, i);
  if (kind == 'i' && size < 8) {
    uint64_t sign = uint64_t{1} << (8 * size - 1);
    bits = (bits ^ sign) - sign;  // sign-extend
  }
  return static_cast<int64_t>(bits);
}

double NumericType::LoadDouble(const char* bytes, uint64_t i) const {
  uint64_t bits = LoadBits(bytes, i);
  if (kind == 'f') {
    if (size == 4) return std::bit_cast<float>(static_cast<uint32_t>(bits));
    return std::bit_cast<double>(bits);
  }
  if (kind == 'u') return static_cast<double>(bits);
  return static_cast<double>(LoadSigned(bytes, i));
}

void NumericType::StoreDouble(char* bytes, uint64_t i, double v) const {
  if (size == 4) {
    StoreBits(bytes, i, std::bit_cast<uint32_t>(static_cast<float>(v)));
  } else {
    StoreBits(bytes, i, std::bit_cast<uint64_t>(v));
  }
}

bool NumericType::IntegerFits(double v) const {
  if (!std::isfinite(v)) return false;
  if (kind == 'u') {
    return v >= 0 && v < std::ldexp(1.0, 8 * size);
  }
  double limit = std::ldexp(1.0, 8 * size - 1);
  return v >= -limit && v < limit;
}

}  // namespace kerchunk::internal

namespace kerchunk {
namespace {

template <typename T>
T LoadAs(std::string_view raw, bool big_endian) {
  T v{};
  std::memcpy(&v, raw.data(), sizeof(T));
  if (big_endian != (std::endian::native == std::endian::big)) {
    if constexpr (sizeof(T) == 2) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint16_t>(v)));
    if constexpr (sizeof(T) == 4) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint32_t>(v)));
    if constexpr (sizeof(T) == 8) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint64_t>(v)));
  }
  return v;
}

json::Value EncodeFloat(double d) {
  if (std::isnan(d)) return json::Value::String("NaN");
  if (std::isinf(d)) return json::Value::String(d > 0 ? "Infinity" : "-Infinity");
  return json::Value::Double(d);
}

// IEEE half precision to double.
double HalfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  double v;
  if (exp == 0) {
    v = std::ldexp(frac, -24);
  } else if (exp == 31) {
    v = frac ? NAN : INFINITY;
  } else {
    v = std::ldexp(frac + 1024, exp - 25);
  }
  return sign ? -v : v;
}

}  // namespace

std::optional<uint64_t> DtypeItemSize(std::string_view dtype) {
  if (dtype.size() < 3) return std::nullopt;
  char kind = dtype[1];
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(dtype.data() + 2, dtype.data() + dtype.size(), n);
  if (ec != std::errc() || p != dtype.data() + dtype.size()) return std::nullopt;
  if (kind == 'U') return n * 4;
  if (kind == 'O') return std::nullopt;
  return n;
}

json::Value EncodeFillValue(std::string_view raw, std::string_view dtype) {
  if (dtype.size() < 3) return json::Value::String(Base64Encode(raw));
  bool big = dtype[0] == '>';
  char kind = dtype[1];
  auto size = DtypeItemSize(dtype);
  if (!size || raw.size() < *size) return json::Value::String(Base64Encode(raw));
  switch (kind) {
    case 'f':
      if (*size == 2) return EncodeFloat(HalfToDouble(LoadAs<uint16_t>(raw, big)));
      if (*size == 4) return EncodeFloat(LoadAs<float>(raw, big));
      if (*size == 8) return EncodeFloat(LoadAs<double>(raw, big));
      break;
    case 'c':
      if (*size == 8) {
        return json::Value::MakeArray(
            {EncodeFloat(LoadAs<float>(raw, big)), EncodeFloat(LoadAs<float>(raw.substr(4), big))});
      }
      if (*size == 16) {
        return json::Value::MakeArray({EncodeFloat(LoadAs<double>(raw, big)),
                                       EncodeFloat(LoadAs<double>(raw.substr(8), big))});
      }
      break;
    case 'i':
    case 'm':
    case 'M':
      if (*size == 1) return json::Value::Int(static_cast<int8_t>(raw[0]));
      if (*size == 2) return json::Value::Int(LoadAs<int16_t>(raw, big));
      if (*size == 4) return json::Value::Int(LoadAs<int32_t>(raw, big));
      if (*size == 8) return json::Value::Int(LoadAs<int64_t>(raw, big));
      break;
    case 'u':
      if (*size == 1) return json::Value::Int(static_cast<uint8_t>(raw[0]));
      if (*size == 2) return json::Value::Int(LoadAs<uint16_t>(raw, big));
      if (*size == 4) return json::Value::Int(LoadAs<uint32_t>(raw, big));
      if (*size == 8) return json::Value::Uint(LoadAs<uint64_t>(raw, big));
      break;
    case 'b':
      return json::Value::Bool(raw[0] != 0);
    default:
      break;
  }
  return json::Value::String(Base64Encode(raw.substr(0, *size)));
}

}  // namespace kerchunk
