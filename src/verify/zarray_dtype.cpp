// numpy dtype strings and zarr fill values (zarr/meta.py decode_fill_value, zarr 2.13).
#include <charconv>
#include <cmath>
#include <set>

#include "kerchunk/util/base64.h"
#include "kerchunk/util/checked_math.h"
#include "verify/zarray_rules.h"

namespace kerchunk::verify::internal {
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

}  // namespace kerchunk::verify::internal
