#include "kerchunk/netcdf3/types.h"

namespace kerchunk::netcdf3 {

std::optional<NcType> NcTypeFromCode(uint32_t code) {
  if (code < 1 || code > 11) return std::nullopt;
  return static_cast<NcType>(code);
}

uint32_t TypeSize(NcType type) {
  switch (type) {
    case NcType::kByte:
    case NcType::kChar:
    case NcType::kUbyte:
      return 1;
    case NcType::kShort:
    case NcType::kUshort:
      return 2;
    case NcType::kInt:
    case NcType::kFloat:
    case NcType::kUint:
      return 4;
    case NcType::kDouble:
    case NcType::kInt64:
    case NcType::kUint64:
      return 8;
  }
  return 0;
}

std::string_view TypeName(NcType type) {
  switch (type) {
    case NcType::kByte:
      return "byte";
    case NcType::kChar:
      return "char";
    case NcType::kShort:
      return "short";
    case NcType::kInt:
      return "int";
    case NcType::kFloat:
      return "float";
    case NcType::kDouble:
      return "double";
    case NcType::kUbyte:
      return "ubyte";
    case NcType::kUshort:
      return "ushort";
    case NcType::kUint:
      return "uint";
    case NcType::kInt64:
      return "int64";
    case NcType::kUint64:
      return "uint64";
  }
  return "unknown";
}

std::string_view NumpyDtype(NcType type) {
  switch (type) {
    case NcType::kByte:
      return "|i1";
    case NcType::kChar:
      return "|S1";
    case NcType::kShort:
      return ">i2";
    case NcType::kInt:
      return ">i4";
    case NcType::kFloat:
      return ">f4";
    case NcType::kDouble:
      return ">f8";
    case NcType::kUbyte:
      return "|u1";
    case NcType::kUshort:
      return ">u2";
    case NcType::kUint:
      return ">u4";
    case NcType::kInt64:
      return ">i8";
    case NcType::kUint64:
      return ">u8";
  }
  return "";
}

bool IsInteger(NcType type) { return type != NcType::kChar && !IsFloat(type); }

bool IsFloat(NcType type) { return type == NcType::kFloat || type == NcType::kDouble; }

std::string_view FormatName(Format format) {
  switch (format) {
    case Format::kClassic:
      return "classic";
    case Format::k64BitOffset:
      return "64-bit offset";
    case Format::k64BitData:
      return "CDF-5";
  }
  return "unknown";
}

}  // namespace kerchunk::netcdf3
