// Datatype message versions 1..3; see the specification link in datatype.h.
//
// Every type starts with 8 bytes: class and version (4 bits each), 24 class bit-field bits and
// the element size (4); then the class's properties. Names in compound and enum types are
// NUL-terminated and padded to a multiple of 8 bytes before version 3, unpadded from it.
#include "kerchunk/hdf5/datatype.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {
namespace {

constexpr int kMaxDepth = 32;

Result<Datatype> Decode(ByteReader& r, int depth);

// A NUL-terminated name; `pad8` consumes the padding to the next multiple of 8 bytes (counted
// from the name's start).
Result<std::string> ReadName(ByteReader& r, bool pad8) {
  const auto rest = r.bytes().subspan(r.position());
  size_t len = 0;
  while (len < rest.size() && rest[len] != std::byte{0}) ++len;
  if (len == rest.size()) return r.Error("name without a terminating NUL");
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, r.Chars(len, "name"));
  uint64_t consumed = len + 1;
  if (pad8) consumed = (consumed + 7) / 8 * 8;
  KERCHUNK_RETURN_IF_ERROR(r.Skip(consumed - len).Annotate("name padding"));
  return std::string(name);
}

Status DecodeFixedPoint(ByteReader& r, uint32_t bits, Datatype& t) {
  t.byte_order = (bits & 0x01) ? ByteOrder::kBig : ByteOrder::kLittle;
  t.is_signed = (bits & 0x08) != 0;
  KERCHUNK_ASSIGN_OR_RETURN(t.bit_offset, r.U16("bit offset"));
  KERCHUNK_ASSIGN_OR_RETURN(t.precision, r.U16("bit precision"));
  return OkStatus();
}

Status DecodeFloat(ByteReader& r, uint32_t bits, Datatype& t) {
  const unsigned order = (bits & 0x01) | ((bits >> 5) & 0x02);
  if (order == 2) return r.Error("floating-point byte order: reserved value");
  t.byte_order = order == 0 ? ByteOrder::kLittle : order == 1 ? ByteOrder::kBig : ByteOrder::kVax;
  t.sign_location = static_cast<uint8_t>((bits >> 8) & 0xFF);
  KERCHUNK_ASSIGN_OR_RETURN(t.bit_offset, r.U16("bit offset"));
  KERCHUNK_ASSIGN_OR_RETURN(t.precision, r.U16("bit precision"));
  KERCHUNK_ASSIGN_OR_RETURN(t.exponent_location, r.U8("exponent location"));
  KERCHUNK_ASSIGN_OR_RETURN(t.exponent_size, r.U8("exponent size"));
  KERCHUNK_ASSIGN_OR_RETURN(t.mantissa_location, r.U8("mantissa location"));
  KERCHUNK_ASSIGN_OR_RETURN(t.mantissa_size, r.U8("mantissa size"));
  KERCHUNK_ASSIGN_OR_RETURN(t.exponent_bias, r.U32("exponent bias"));
  return OkStatus();
}

// Bytes of a version 3 compound member offset: the fewest that hold the compound's size.
unsigned MemberOffsetWidth(uint32_t size) {
  unsigned width = 1;
  while (width < 4 && (size >> (8 * width)) != 0) ++width;
  return width;
}

Status DecodeCompound(ByteReader& r, uint32_t bits, Datatype& t, int depth) {
  const unsigned count = bits & 0xFFFF;
  for (unsigned i = 0; i < count; ++i) {
    CompoundMember m;
    KERCHUNK_ASSIGN_OR_RETURN(m.name, ReadName(r, t.version < 3));
    if (t.version >= 3) {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t off, r.UVar(MemberOffsetWidth(t.size), "member offset"));
      m.offset = static_cast<uint32_t>(off);
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(m.offset, r.U32("member offset"));
    }
    std::vector<uint32_t> dims;
    if (t.version == 1) {
      // Version 1 members may be arrays of up to 4 dimensions, stored here.
      KERCHUNK_ASSIGN_OR_RETURN(uint8_t rank, r.U8("member dimensionality"));
      if (rank > 4) return r.Error(fmt::format("member rank {} above 4", rank));
      KERCHUNK_RETURN_IF_ERROR(r.Skip(3 + 4 + 4));  // reserved, permutation, reserved
      for (unsigned d = 0; d < 4; ++d) {
        KERCHUNK_ASSIGN_OR_RETURN(uint32_t n, r.U32("member dimension size"));
        if (d < rank) dims.push_back(n);
      }
    }
    KERCHUNK_ASSIGN_OR_RETURN(Datatype member, Decode(r, depth + 1));
    if (!dims.empty()) {
      Datatype array;
      array.type_class = DatatypeClass::kArray;
      array.version = 1;
      array.array_dims = dims;
      uint64_t n = member.size;
      for (uint32_t d : dims) n *= d;
      array.size = static_cast<uint32_t>(n);
      array.base.push_back(std::move(member));
      member = std::move(array);
    }
    if (uint64_t{m.offset} + member.size > t.size) {
      return r.Error(
          fmt::format("compound member '{}' at offset {} with {} bytes exceeds the {} "
                      "bytes of the compound",
                      m.name, m.offset, member.size, t.size));
    }
    m.type.push_back(std::move(member));
    t.members.push_back(std::move(m));
  }
  return OkStatus();
}

Status DecodeEnum(ByteReader& r, uint32_t bits, Datatype& t, int depth) {
  const unsigned count = bits & 0xFFFF;
  KERCHUNK_ASSIGN_OR_RETURN(Datatype base, Decode(r, depth + 1));
  for (unsigned i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string name, ReadName(r, t.version < 3));
    t.enum_names.push_back(std::move(name));
  }
  for (unsigned i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string_view v, r.Chars(base.size, "enum value"));
    t.enum_values.emplace_back(v);
  }
  t.base.push_back(std::move(base));
  return OkStatus();
}

Status DecodeArray(ByteReader& r, Datatype& t, int depth) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t rank, r.U8("array dimensionality"));
  if (rank == 0 || rank > 32)
    return r.Error(fmt::format("expected array rank 1..32, got {}", rank));
  if (t.version < 3) KERCHUNK_RETURN_IF_ERROR(r.Skip(3));
  for (unsigned d = 0; d < rank; ++d) {
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t n, r.U32("array dimension size"));
    t.array_dims.push_back(n);
  }
  if (t.version < 3) KERCHUNK_RETURN_IF_ERROR(r.Skip(4 * uint64_t{rank}));  // permutation
  KERCHUNK_ASSIGN_OR_RETURN(Datatype base, Decode(r, depth + 1));
  t.base.push_back(std::move(base));
  return OkStatus();
}

Status DecodeProperties(ByteReader& r, uint32_t bits, Datatype& t, int depth) {
  switch (t.type_class) {
    case DatatypeClass::kFixedPoint:
    case DatatypeClass::kBitfield:
      return DecodeFixedPoint(r, bits, t);
    case DatatypeClass::kFloatingPoint:
      return DecodeFloat(r, bits, t);
    case DatatypeClass::kTime:
      t.byte_order = (bits & 0x01) ? ByteOrder::kBig : ByteOrder::kLittle;
      return r.U16("bit precision").status();
    case DatatypeClass::kString:
      t.padding = static_cast<StringPadding>(bits & 0x0F);
      t.charset = static_cast<uint8_t>((bits >> 4) & 0x0F);
      return OkStatus();
    case DatatypeClass::kOpaque: {
      KERCHUNK_ASSIGN_OR_RETURN(std::string_view tag, r.Chars(bits & 0xFF, "opaque tag"));
      t.tag = std::string(tag.substr(0, tag.find('\0')));
      return OkStatus();
    }
    case DatatypeClass::kCompound:
      return DecodeCompound(r, bits, t, depth);
    case DatatypeClass::kReference:
      t.reference_type = static_cast<uint8_t>(bits & 0x0F);
      return OkStatus();
    case DatatypeClass::kEnum:
      return DecodeEnum(r, bits, t, depth);
    case DatatypeClass::kVariableLength: {
      t.vlen_string = (bits & 0x0F) == 1;
      t.padding = static_cast<StringPadding>((bits >> 4) & 0x0F);
      t.charset = static_cast<uint8_t>((bits >> 8) & 0x0F);
      KERCHUNK_ASSIGN_OR_RETURN(Datatype base, Decode(r, depth + 1));
      t.base.push_back(std::move(base));
      return OkStatus();
    }
    case DatatypeClass::kArray:
      return DecodeArray(r, t, depth);
  }
  return OkStatus();
}

Result<Datatype> Decode(ByteReader& r, int depth) {
  if (depth > kMaxDepth) return r.Error("datatype nested more than 32 levels deep");
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t class_and_version, r.U8("class and version"));
  Datatype t;
  t.version = class_and_version >> 4;
  const unsigned cls = class_and_version & 0x0F;
  if (t.version < 1 || t.version > 4) {
    return r.Error(fmt::format("expected datatype version 1..4, got {}", t.version));
  }
  if (cls > 10) return r.Error(fmt::format("expected datatype class 0..10, got {}", cls));
  t.type_class = static_cast<DatatypeClass>(cls);
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t b0, r.U8("class bit field"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t b1, r.U8("class bit field"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t b2, r.U8("class bit field"));
  const uint32_t bits = b0 | (uint32_t{b1} << 8) | (uint32_t{b2} << 16);
  KERCHUNK_ASSIGN_OR_RETURN(t.size, r.U32("size"));
  if (t.size == 0 && t.type_class != DatatypeClass::kVariableLength) {
    return r.Error("datatype of size 0");
  }
  KERCHUNK_RETURN_IF_ERROR(DecodeProperties(r, bits, t, depth));
  if (t.type_class == DatatypeClass::kEnum && t.base[0].size != t.size) {
    return r.Error(
        fmt::format("enum of size {} over a base type of size {}", t.size, t.base[0].size));
  }
  return t;
}

}  // namespace

Result<Datatype> DecodeDatatype(ByteReader& r) { return Decode(r, 0); }

bool SameDatatype(const Datatype& a, const Datatype& b) {
  if (a.type_class != b.type_class || a.size != b.size || a.byte_order != b.byte_order ||
      a.is_signed != b.is_signed || a.bit_offset != b.bit_offset || a.precision != b.precision ||
      a.sign_location != b.sign_location || a.exponent_location != b.exponent_location ||
      a.exponent_size != b.exponent_size || a.mantissa_location != b.mantissa_location ||
      a.mantissa_size != b.mantissa_size || a.exponent_bias != b.exponent_bias ||
      a.padding != b.padding || a.charset != b.charset || a.vlen_string != b.vlen_string ||
      a.reference_type != b.reference_type || a.tag != b.tag || a.enum_names != b.enum_names ||
      a.enum_values != b.enum_values || a.array_dims != b.array_dims ||
      a.members.size() != b.members.size() || a.base.size() != b.base.size()) {
    return false;
  }
  for (size_t i = 0; i < a.members.size(); ++i) {
    if (a.members[i].name != b.members[i].name || a.members[i].offset != b.members[i].offset ||
        !SameDatatype(a.members[i].type.at(0), b.members[i].type.at(0))) {
      return false;
    }
  }
  for (size_t i = 0; i < a.base.size(); ++i) {
    if (!SameDatatype(a.base[i], b.base[i])) return false;
  }
  return true;
}

std::string DatatypeClassName(DatatypeClass cls) {
  switch (cls) {
    case DatatypeClass::kFixedPoint:
      return "integer type";
    case DatatypeClass::kFloatingPoint:
      return "float type";
    case DatatypeClass::kTime:
      return "time type";
    case DatatypeClass::kString:
      return "string type";
    case DatatypeClass::kBitfield:
      return "bitfield type";
    case DatatypeClass::kOpaque:
      return "opaque type";
    case DatatypeClass::kCompound:
      return "compound type";
    case DatatypeClass::kReference:
      return "reference type";
    case DatatypeClass::kEnum:
      return "enum type";
    case DatatypeClass::kVariableLength:
      return "variable-length sequence type";
    case DatatypeClass::kArray:
      return "array type";
  }
  return fmt::format("datatype class {}", static_cast<int>(cls));
}

}  // namespace kerchunk::hdf5
