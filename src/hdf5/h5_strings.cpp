#include "hdf5/h5_strings.h"

#include <fmt/format.h>

#include "hdf5/h5_library.h"

namespace kerchunk::hdf5::internal {
namespace {

herr_t Read(hid_t object, hid_t mem_type, void* buffer, bool is_attribute) {
  if (is_attribute) return H5Aread(object, mem_type, buffer);
  return H5Dread(object, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
}

}  // namespace

void ReclaimVlen(hid_t mem_type, hid_t space, void* buffer) {
#if H5_VERSION_GE(1, 12, 0)
  H5Treclaim(mem_type, space, H5P_DEFAULT, buffer);
#else
  H5Dvlen_reclaim(mem_type, space, H5P_DEFAULT, buffer);
#endif
}

Result<std::vector<std::string>> ReadStrings(hid_t object, hid_t type, size_t count,
                                             bool is_attribute) {
  std::vector<std::string> out;
  out.reserve(count);
  if (count == 0) return out;
  const htri_t variable = H5Tis_variable_str(type);
  if (variable < 0) return LibraryError("cannot inspect the string type");
  if (!variable) {
    // Read as h5py does, into a null-padded memory type: libhdf5's conversion ends a
    // null-terminated value at its first NUL and drops a space-padded value's padding.
    const size_t size = H5Tget_size(type);
    Handle mem(H5Tcopy(type));
    if (!mem.valid() || H5Tset_strpad(mem.get(), H5T_STR_NULLPAD) < 0) {
      return LibraryError("cannot make a string memory type");
    }
    std::string raw(size * count, '\0');
    if (Read(object, mem.get(), raw.data(), is_attribute) < 0) {
      return LibraryError("cannot read the strings");
    }
    for (size_t i = 0; i < count; ++i) {
      std::string_view s(raw.data() + i * size, size);
      while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
      out.emplace_back(s);
    }
    return out;
  }
  Handle mem(H5Tcopy(H5T_C_S1));
  if (!mem.valid() || H5Tset_size(mem.get(), H5T_VARIABLE) < 0 ||
      H5Tset_cset(mem.get(), H5Tget_cset(type)) < 0) {
    return LibraryError("cannot make a string memory type");
  }
  std::vector<char*> pointers(count, nullptr);
  if (Read(object, mem.get(), pointers.data(), is_attribute) < 0) {
    return LibraryError("cannot read the strings");
  }
  for (char* p : pointers) out.emplace_back(p ? p : "");
  Handle space(is_attribute ? H5Aget_space(object) : H5Dget_space(object));
  if (space.valid()) ReclaimVlen(mem.get(), space.get(), pointers.data());
  return out;
}

std::string TypeClassName(H5T_class_t cls) {
  switch (cls) {
    case H5T_INTEGER:
      return "integer type";
    case H5T_FLOAT:
      return "float type";
    case H5T_TIME:
      return "time type";
    case H5T_STRING:
      return "string type";
    case H5T_BITFIELD:
      return "bitfield type";
    case H5T_OPAQUE:
      return "opaque type";
    case H5T_COMPOUND:
      return "compound type";
    case H5T_REFERENCE:
      return "reference type";
    case H5T_ENUM:
      return "enum type";
    case H5T_VLEN:
      return "variable-length sequence type";
    case H5T_ARRAY:
      return "array type";
    default:
      return fmt::format("datatype class {}", static_cast<int>(cls));
  }
}

}  // namespace kerchunk::hdf5::internal
