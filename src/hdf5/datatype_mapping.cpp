#include "hdf5/datatype_mapping.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <vector>

#include "hdf5/h5_library.h"

namespace kerchunk::hdf5::internal {
namespace {

char ByteOrderChar(hid_t type, size_t size) {
  if (size == 1) return '|';
  switch (H5Tget_order(type)) {
    case H5T_ORDER_LE:
      return '<';
    case H5T_ORDER_BE:
      return '>';
    default:
      return 0;  // VAX, mixed: numpy has no equivalent
  }
}

// Integers whose value bits fill the whole element, so the stored bytes are numpy's bytes.
std::string IntegerDtype(hid_t type, bool force_unsigned) {
  const size_t size = H5Tget_size(type);
  if (size != 1 && size != 2 && size != 4 && size != 8) return "";
  if (H5Tget_offset(type) != 0 || H5Tget_precision(type) != 8 * size) return "";
  const char order = ByteOrderChar(type, size);
  if (!order) return "";
  const bool is_signed = !force_unsigned && H5Tget_sign(type) == H5T_SGN_2;
  return fmt::format("{}{}{}", order, is_signed ? 'i' : 'u', size);
}

// IEEE binary16/32/64 only: other layouts would need conversion, which raw references cannot do.
std::string FloatDtype(hid_t type) {
  const size_t size = H5Tget_size(type);
  struct Layout {
    size_t size, spos, epos, esize, mpos, msize;
  };
  static constexpr std::array<Layout, 3> kIeee = {
      {{2, 15, 10, 5, 0, 10}, {4, 31, 23, 8, 0, 23}, {8, 63, 52, 11, 0, 52}}};
  size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
  if (H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize) < 0) return "";
  for (const Layout& l : kIeee) {
    if (l.size == size && l.spos == spos && l.epos == epos && l.esize == esize && l.mpos == mpos &&
        l.msize == msize && H5Tget_offset(type) == 0) {
      const char order = ByteOrderChar(type, size);
      if (!order) return "";
      return fmt::format("{}f{}", order, size);
    }
  }
  return "";
}

// h5py turns an enum whose members are exactly FALSE=0 and TRUE=1 into numpy bool; raw bytes
// match numpy's only when the base type is one byte.
bool IsBoolEnum(hid_t type) {
  if (H5Tget_nmembers(type) != 2 || H5Tget_size(type) != 1) return false;
  bool seen_false = false, seen_true = false;
  for (unsigned i = 0; i < 2; ++i) {
    char* name = H5Tget_member_name(type, i);
    if (!name) return false;
    int8_t value = 0;
    const bool got = H5Tget_member_value(type, i, &value) >= 0;
    const std::string member(name);
    H5free_memory(name);
    if (!got) return false;
    if (member == "FALSE" && value == 0) seen_false = true;
    if (member == "TRUE" && value == 1) seen_true = true;
  }
  return seen_false && seen_true;
}

// The members of a compound type for DescribeCompound: array-typed members by their base
// type and dimensions.
Result<std::vector<StructuredField>> StructuredFields(hid_t type) {
  const int members = H5Tget_nmembers(type);
  if (members < 0) return LibraryError("cannot inspect the compound type");
  std::vector<StructuredField> fields;
  for (unsigned i = 0; i < static_cast<unsigned>(members); ++i) {
    char* name = H5Tget_member_name(type, i);
    if (!name) return LibraryError("cannot inspect a compound member");
    StructuredField field{name, H5Tget_member_offset(type, i), {}, {}};
    H5free_memory(name);
    Handle member(H5Tget_member_type(type, i));
    if (!member.valid()) return LibraryError("cannot inspect a compound member");
    if (H5Tget_class(member.get()) == H5T_ARRAY) {
      const int rank = H5Tget_array_ndims(member.get());
      Handle base(H5Tget_super(member.get()));
      if (rank <= 0 || !base.valid()) return LibraryError("cannot inspect the array type");
      std::vector<hsize_t> dims(static_cast<size_t>(rank));
      H5Tget_array_dims2(member.get(), dims.data());
      field.array_dims.assign(dims.begin(), dims.end());
      KERCHUNK_ASSIGN_OR_RETURN(field.type, DescribeType(base.get()));
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(field.type, DescribeType(member.get()));
    }
    fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace

std::string NumericDtype(hid_t type) {
  switch (H5Tget_class(type)) {
    case H5T_INTEGER:
      return IntegerDtype(type, false);
    case H5T_BITFIELD:
      return IntegerDtype(type, true);  // h5py reads bitfields as unsigned integers
    case H5T_FLOAT:
      return FloatDtype(type);
    case H5T_ENUM: {
      Handle base(H5Tget_super(type));
      return base.valid() ? IntegerDtype(base.get(), false) : "";
    }
    default:
      return "";
  }
}

hid_t LittleEndianMemoryType(hid_t type) {
  hid_t copy = H5Tcopy(type);
  if (copy >= 0 && H5Tget_size(copy) > 1) H5Tset_order(copy, H5T_ORDER_LE);
  return copy;
}

Result<NumpyType> DescribeType(hid_t type) {
  const H5T_class_t cls = H5Tget_class(type);
  const size_t size = H5Tget_size(type);
  if (cls == H5T_NO_CLASS || size == 0) return LibraryError("cannot inspect the datatype");
  switch (cls) {
    case H5T_INTEGER:
      return MakeNumericType(size, NumericDtype(type), "integer type");
    case H5T_BITFIELD:
      return MakeNumericType(size, NumericDtype(type), "bitfield type");
    case H5T_FLOAT:
      return MakeNumericType(size, NumericDtype(type), "float type");
    case H5T_ENUM: {
      if (IsBoolEnum(type)) return MakeBoolType();
      return MakeNumericType(size, NumericDtype(type), "enum type");
    }
    case H5T_STRING: {
      const htri_t variable = H5Tis_variable_str(type);
      if (variable < 0) return LibraryError("cannot inspect the string type");
      NumpyType out;
      out.file_size = size;
      if (variable) {
        out.type_class = TypeClass::kVlenString;
        out.dtype = "|O";
      } else {
        out.type_class = TypeClass::kFixedString;
        out.dtype = fmt::format("|S{}", size);
      }
      return out;
    }
    case H5T_VLEN: {
      Handle base(H5Tget_super(type));
      if (!base.valid()) return LibraryError("cannot inspect the variable-length type");
      const std::string element = NumericDtype(base.get());
      const H5T_class_t base_class = H5Tget_class(base.get());
      if (element.empty() || base_class == H5T_ENUM || base_class == H5T_BITFIELD) {
        return MakeUnsupportedType(size, "variable-length sequence of a non-numeric type");
      }
      NumpyType out;
      out.type_class = TypeClass::kVlenSequence;
      out.dtype = "|O";
      out.file_size = size;
      out.element_dtype = LittleEndianDtype(element);
      return out;
    }
    case H5T_COMPOUND: {
      KERCHUNK_ASSIGN_OR_RETURN(std::vector<StructuredField> fields, StructuredFields(type));
      return DescribeCompound(size, fields);
    }
    case H5T_OPAQUE:
      return MakeUnsupportedType(size, "opaque type");
    case H5T_ARRAY:
      return MakeUnsupportedType(size, "array type");
    case H5T_REFERENCE:
      return MakeUnsupportedType(size, "reference type");
    case H5T_TIME:
      return MakeUnsupportedType(size, "time type");
    default:
      return MakeUnsupportedType(size, fmt::format("datatype class {}", static_cast<int>(cls)));
  }
}

}  // namespace kerchunk::hdf5::internal
