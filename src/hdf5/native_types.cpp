// Native datatype mapping and value decoding; see native_types.h. The rules mirror
// datatype_mapping.cpp (the libhdf5 oracle) case by case.
#include "hdf5/native_types.h"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstring>
#include <optional>

namespace kerchunk::hdf5::internal {
namespace {

char ByteOrderChar(const Datatype& t) {
  if (t.size == 1) return '|';
  switch (t.byte_order) {
    case ByteOrder::kLittle:
      return '<';
    case ByteOrder::kBig:
      return '>';
    default:
      return 0;  // VAX: numpy has no equivalent
  }
}

std::string IntegerDtype(const Datatype& t, bool force_unsigned) {
  const uint32_t size = t.size;
  if (size != 1 && size != 2 && size != 4 && size != 8) return "";
  if (t.bit_offset != 0 || t.precision != 8 * size) return "";
  const char order = ByteOrderChar(t);
  if (!order) return "";
  const bool is_signed = !force_unsigned && t.is_signed;
  return fmt::format("{}{}{}", order, is_signed ? 'i' : 'u', size);
}

struct IeeeLayout {
  uint32_t size;
  uint8_t spos, epos, esize, mpos, msize;
};
constexpr std::array<IeeeLayout, 3> kIeee = {
    {{2, 15, 10, 5, 0, 10}, {4, 31, 23, 8, 0, 23}, {8, 63, 52, 11, 0, 52}}};

bool IsIeee(const Datatype& t) {
  for (const IeeeLayout& l : kIeee) {
    if (l.size == t.size && l.spos == t.sign_location && l.epos == t.exponent_location &&
        l.esize == t.exponent_size && l.mpos == t.mantissa_location && l.msize == t.mantissa_size &&
        t.bit_offset == 0) {
      return true;
    }
  }
  return false;
}

std::string FloatDtype(const Datatype& t) {
  if (!IsIeee(t)) return "";
  const char order = ByteOrderChar(t);
  if (!order) return "";
  return fmt::format("{}f{}", order, t.size);
}

uint64_t LoadUnsigned(std::span<const std::byte> p, bool big_endian) {
  uint64_t v = 0;
  const size_t size = std::min<size_t>(p.size(), 8);
  for (size_t i = 0; i < size; ++i) {
    const size_t byte = big_endian ? i : size - 1 - i;
    v = (v << 8) | static_cast<uint8_t>(p[byte]);
  }
  return v;
}

}  // namespace

std::vector<StructuredField> NativeStructuredFields(const Datatype& type) {
  std::vector<StructuredField> fields;
  for (const CompoundMember& member : type.members) {
    StructuredField field{member.name, member.offset, {}, {}};
    const Datatype& t = member.type.at(0);
    if (t.type_class == DatatypeClass::kArray) {
      field.array_dims.assign(t.array_dims.begin(), t.array_dims.end());
      field.type = DescribeNativeType(t.base.at(0));
    } else {
      field.type = DescribeNativeType(t);
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

std::string NativeNumericDtype(const Datatype& type) {
  switch (type.type_class) {
    case DatatypeClass::kFixedPoint:
      return IntegerDtype(type, false);
    case DatatypeClass::kBitfield:
      return IntegerDtype(type, true);  // h5py reads bitfields as unsigned integers
    case DatatypeClass::kFloatingPoint:
      return FloatDtype(type);
    case DatatypeClass::kEnum:
      return type.base.empty() ? "" : IntegerDtype(type.base[0], false);
    default:
      return "";
  }
}

bool IsBoolEnum(const Datatype& type) {
  if (type.type_class != DatatypeClass::kEnum || type.enum_names.size() != 2 || type.size != 1) {
    return false;
  }
  bool seen_false = false, seen_true = false;
  for (size_t i = 0; i < 2; ++i) {
    if (type.enum_values[i].size() != 1) return false;
    const auto value = static_cast<int8_t>(type.enum_values[i][0]);
    if (type.enum_names[i] == "FALSE" && value == 0) seen_false = true;
    if (type.enum_names[i] == "TRUE" && value == 1) seen_true = true;
  }
  return seen_false && seen_true;
}

NumpyType DescribeNativeType(const Datatype& type) {
  const size_t size = type.size;
  switch (type.type_class) {
    case DatatypeClass::kFixedPoint:
      return MakeNumericType(size, NativeNumericDtype(type), "integer type");
    case DatatypeClass::kBitfield:
      return MakeNumericType(size, NativeNumericDtype(type), "bitfield type");
    case DatatypeClass::kFloatingPoint:
      return MakeNumericType(size, NativeNumericDtype(type), "float type");
    case DatatypeClass::kEnum: {
      if (IsBoolEnum(type)) return MakeBoolType();
      return MakeNumericType(size, NativeNumericDtype(type), "enum type");
    }
    case DatatypeClass::kString: {
      NumpyType out;
      out.file_size = size;
      out.type_class = TypeClass::kFixedString;
      out.dtype = fmt::format("|S{}", size);
      return out;
    }
    case DatatypeClass::kVariableLength: {
      NumpyType out;
      out.file_size = size;
      out.dtype = "|O";
      if (type.vlen_string) {
        out.type_class = TypeClass::kVlenString;
        return out;
      }
      const Datatype& base = type.base.at(0);
      const std::string element = NativeNumericDtype(base);
      if (element.empty() || base.type_class == DatatypeClass::kEnum ||
          base.type_class == DatatypeClass::kBitfield) {
        return MakeUnsupportedType(size, "variable-length sequence of a non-numeric type");
      }
      out.type_class = TypeClass::kVlenSequence;
      out.element_dtype = LittleEndianDtype(element);
      return out;
    }
    case DatatypeClass::kCompound:
      return DescribeCompound(size, NativeStructuredFields(type));
    case DatatypeClass::kOpaque:
    case DatatypeClass::kArray:
    case DatatypeClass::kReference:
    case DatatypeClass::kTime:
      return MakeUnsupportedType(size, DatatypeClassName(type.type_class));
  }
  return MakeUnsupportedType(size, DatatypeClassName(type.type_class));
}

uint64_t LoadBits(std::span<const std::byte> element, const Datatype& type) {
  uint64_t v = LoadUnsigned(element, type.byte_order == ByteOrder::kBig);
  const unsigned precision = type.precision;
  if (type.bit_offset > 0 && type.bit_offset < 64) v >>= type.bit_offset;
  if (precision > 0 && precision < 64) v &= (uint64_t{1} << precision) - 1;
  return v;
}

json::Value IntegerValue(std::span<const std::byte> element, const Datatype& type) {
  uint64_t v = LoadBits(element, type);
  if (!type.is_signed) return json::Value::Uint(v);
  const unsigned precision = type.precision == 0 ? 8 * type.size : type.precision;
  if (precision < 64) {
    const unsigned shift = 64 - precision;
    return json::Value::Int(static_cast<int64_t>(v << shift) >> shift);
  }
  return json::Value::Int(static_cast<int64_t>(v));
}

std::optional<double> FloatValue(std::span<const std::byte> element, const Datatype& type) {
  if (!IsIeee(type) || type.byte_order == ByteOrder::kVax) return std::nullopt;
  const uint64_t bits = LoadUnsigned(element.first(type.size), type.byte_order == ByteOrder::kBig);
  switch (type.size) {
    case 8:
      return std::bit_cast<double>(bits);
    case 4:
      return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case 2: {
      // binary16 -> double, exactly (every half value is a double).
      const uint32_t sign = (bits >> 15) & 1, exponent = (bits >> 10) & 0x1F;
      const uint32_t mantissa = bits & 0x3FF;
      double value;
      if (exponent == 0) {
        value = std::ldexp(static_cast<double>(mantissa), -24);
      } else if (exponent == 31) {
        value = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
      } else {
        value = std::ldexp(static_cast<double>(mantissa | 0x400), static_cast<int>(exponent) - 25);
      }
      return sign ? -value : value;
    }
    default:
      return std::nullopt;
  }
}

std::string FixedStringValue(std::string_view element, StringPadding padding) {
  // What ConvertFixedString(element, padding, size, kNullPad) keeps once trailing NULs go,
  // taken without building the padded copy. Null-padded: libhdf5 copies the bytes as they are.
  std::string_view v = element;
  if (padding == StringPadding::kSpacePad) {
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  } else if (padding != StringPadding::kNullPad) {  // null-terminated: up to the first NUL
    v = v.substr(0, std::min(v.find('\0'), v.size()));
  }
  while (!v.empty() && v.back() == '\0') v.remove_suffix(1);
  return std::string(v);
}

std::string ConvertFixedString(std::string_view s, StringPadding src_padding, size_t dst_size,
                               StringPadding dst_padding) {
  std::string d;
  if (src_padding == StringPadding::kSpacePad) {
    size_t n = s.size();
    while (n > 0 && s[n - 1] == ' ') --n;
    d = std::string(s.substr(0, std::min(n, dst_size)));
  } else {
    size_t n = 0;
    while (n < dst_size && n < s.size() && s[n] != '\0') ++n;
    d = std::string(s.substr(0, n));
  }
  d.resize(dst_size, dst_padding == StringPadding::kSpacePad ? ' ' : '\0');
  if (dst_padding == StringPadding::kNullTerminate && dst_size > 0) d[dst_size - 1] = '\0';
  return d;
}

}  // namespace kerchunk::hdf5::internal
