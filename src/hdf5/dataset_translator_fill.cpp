// The .zarray fill_value, following kerchunk 0.2.2's rules (see DatasetFillValue) but without
// its crashes: an undefined HDF5 fill value gives null, and a _FillValue attribute that the
// dataset's type cannot hold (a float 1e37 on an int16 variable) gives null with a warning.
#include <fmt/format.h>

#include <vector>

#include "hdf5/dataset_translator.h"
#include "hdf5/h5_library.h"

namespace kerchunk::hdf5::internal {
namespace {

// The _FillValue attribute converted to the dataset's file type, or why it cannot be.
Result<json::Value> FillValueAttribute(const FillValueInputs& in) {
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle attr, Check(H5Aopen(in.dataset, "_FillValue", H5P_DEFAULT), "cannot open _FillValue"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Aget_space(attr.get()), "_FillValue"));
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 1) return InvalidArgumentError("_FillValue has no value");
  KERCHUNK_ASSIGN_OR_RETURN(Handle attr_type, Check(H5Aget_type(attr.get()), "_FillValue"));
  const H5T_class_t attr_class = H5Tget_class(attr_type.get());
  const std::string& dtype = in.type->dtype;
  const size_t size = H5Tget_size(in.file_type);
  std::vector<char> values(size * static_cast<size_t>(n));
  if (IsCompoundNumpyType(*in.type)) {
    // Only the dataset's own type counts: libhdf5 would convert another compound member by
    // member name, which the native reader does not do.
    if (H5Tequal(attr_type.get(), in.file_type) <= 0) {
      return InvalidArgumentError("{}", kCompoundFillMismatch);
    }
  } else if (in.type->type_class == TypeClass::kFixedString) {
    if (attr_class != H5T_STRING) return InvalidArgumentError("_FillValue is not a string");
  } else if (attr_class != H5T_INTEGER && attr_class != H5T_FLOAT && attr_class != H5T_ENUM) {
    return InvalidArgumentError("_FillValue is not a number");
  } else if (attr_class != H5T_ENUM && (dtype[1] == 'i' || dtype[1] == 'u')) {
    std::vector<double> as_double(static_cast<size_t>(n));
    if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, as_double.data()) < 0) {
      return LibraryError("cannot read _FillValue");
    }
    if (!FitsIntegerDtype(as_double[0], dtype)) {
      json::Value shown = json::Value::Double(as_double[0]);
      return InvalidArgumentError("_FillValue {} does not fit dtype {}", shown.Dump(), dtype);
    }
  }
  if (H5Aread(attr.get(), in.file_type, values.data()) < 0) {
    return LibraryError("cannot convert _FillValue to the dataset's type");
  }
  return EncodeTypedFillValue(std::string_view(values.data(), size), *in.type);
}

// h5py's Dataset.fillvalue: the fill value property in the file type, zeros by default; null
// when the fill value is undefined (where h5py raises).
Result<json::Value> HdfFillValue(const FillValueInputs& in) {
  H5D_fill_value_t status;
  if (H5Pfill_value_defined(in.dcpl, &status) < 0) return LibraryError("cannot read fill value");
  if (status == H5D_FILL_VALUE_UNDEFINED) return json::Value::Null();
  std::string raw(H5Tget_size(in.file_type), '\0');
  if (H5Pget_fill_value(in.dcpl, in.file_type, raw.data()) < 0) {
    return LibraryError("cannot read the fill value");
  }
  return EncodeTypedFillValue(raw, *in.type);
}

}  // namespace

Result<json::Value> DatasetFillValue(const FillValueInputs& in, std::vector<std::string>& warnings,
                                     const std::string& path) {
  return KerchunkFillValue(
      *in.type, *in.attributes, [&] { return HdfFillValue(in); },
      [&] {
        auto value = FillValueAttribute(in);
        if (!value.ok()) H5Eclear2(H5E_DEFAULT);
        return value;
      },
      warnings, path);
}

}  // namespace kerchunk::hdf5::internal
