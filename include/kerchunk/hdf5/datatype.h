// The Datatype message (type 0x0003), versions 1..3, every class: fixed-point, floating-point,
// time, string, bitfield, opaque, compound, reference, enumerated, variable-length, array.
// Format: HDF5 File Format Specification, "IV.A.2.d. The Datatype Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_dtmessage
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// The class numbers of the message (H5T_class_t has the same values).
enum class DatatypeClass : uint8_t {
  kFixedPoint = 0,
  kFloatingPoint = 1,
  kTime = 2,
  kString = 3,
  kBitfield = 4,
  kOpaque = 5,
  kCompound = 6,
  kReference = 7,
  kEnum = 8,
  kVariableLength = 9,
  kArray = 10,
};

/// Byte order of atomic types; kVax only for floating point.
enum class ByteOrder : uint8_t { kLittle, kBig, kVax };

/// String padding of fixed-length strings (and of variable-length strings, where it is unused).
enum class StringPadding : uint8_t { kNullTerminate = 0, kNullPad = 1, kSpacePad = 2 };

struct Datatype;

/// A compound member: name, byte offset in the compound element, type.
struct CompoundMember {
  std::string name;
  uint32_t offset = 0;
  std::vector<Datatype> type;  // exactly one element
};

/// A decoded datatype. Only the fields of its class are meaningful.
struct Datatype {
  DatatypeClass type_class = DatatypeClass::kFixedPoint;
  uint8_t version = 1;
  /// Bytes per element (for variable-length types: the size of the in-file descriptor).
  uint32_t size = 0;

  // Fixed-point, bitfield, floating-point, time.
  ByteOrder byte_order = ByteOrder::kLittle;
  bool is_signed = false;  // fixed-point
  uint16_t bit_offset = 0;
  uint16_t precision = 0;
  // Floating-point fields (bit positions and sizes).
  uint8_t sign_location = 0;
  uint8_t exponent_location = 0, exponent_size = 0;
  uint8_t mantissa_location = 0, mantissa_size = 0;
  uint32_t exponent_bias = 0;

  // String and variable-length string.
  StringPadding padding = StringPadding::kNullTerminate;
  uint8_t charset = 0;  // 0 ASCII, 1 UTF-8

  /// Variable-length: a string (true) or a sequence of `base` (false).
  bool vlen_string = false;
  /// Reference: 0 object, 1 dataset region.
  uint8_t reference_type = 0;
  /// Opaque: the ASCII tag.
  std::string tag;
  /// Compound members in message order.
  std::vector<CompoundMember> members;
  /// Enum: member names and their values (each `base` bytes wide).
  std::vector<std::string> enum_names;
  std::vector<std::string> enum_values;
  /// Array: the dimensions.
  std::vector<uint32_t> array_dims;
  /// Enum, variable-length and array: the base type (exactly one element).
  std::vector<Datatype> base;

  bool IsVlenString() const { return type_class == DatatypeClass::kVariableLength && vlen_string; }
};

/// Whether two decoded types describe the same type (every field of their classes equal, members
/// and base types too): libhdf5 then copies values between them unconverted.
bool SameDatatype(const Datatype& a, const Datatype& b);

/// Decodes a datatype from `r` (the message data, or a type nested in another message) and
/// consumes exactly its bytes. Nesting deeper than 32 levels, unknown classes or versions and
/// sizes that contradict the class are DataLoss naming the byte address.
Result<Datatype> DecodeDatatype(ByteReader& r);

/// Lower-case name of a class for messages ("compound type", "reference type"), as libhdf5's
/// class names in the translator's warnings.
std::string DatatypeClassName(DatatypeClass cls);

}  // namespace kerchunk::hdf5
