// Name checks of ParseHeader. NetCDF names are UTF-8; they become zarr keys (variables), JSON
// object keys (attributes) and _ARRAY_DIMENSIONS entries (dimensions), so bytes that are not
// UTF-8 would make the references unreadable, and a variable name with '/' or a leading '.'
// would address another key of the store.
#include <set>

#include "kerchunk/json/json_value.h"
#include "netcdf3/layout.h"

namespace kerchunk::netcdf3::internal {
namespace {

Status CheckText(std::string_view name, std::string_view what) {
  if (!json::IsValidUtf8(name)) {
    return DataLossError("{} name is not valid UTF-8 ({} bytes)", what, name.size());
  }
  return OkStatus();
}

Status CheckAttributes(const std::vector<Attribute>& attributes, std::string_view owner) {
  for (const auto& a : attributes) {
    KERCHUNK_RETURN_IF_ERROR(CheckText(a.name, "attribute").Annotate(owner));
  }
  return OkStatus();
}

}  // namespace

Status CheckNames(const Header& header) {
  for (const auto& d : header.dimensions) KERCHUNK_RETURN_IF_ERROR(CheckText(d.name, "dimension"));
  KERCHUNK_RETURN_IF_ERROR(CheckAttributes(header.attributes, "global attributes"));
  std::set<std::string_view> seen;
  for (const auto& v : header.variables) {
    KERCHUNK_RETURN_IF_ERROR(CheckText(v.name, "variable"));
    if (v.name.empty()) return DataLossError("a variable has an empty name");
    if (v.name.find('/') != std::string::npos || v.name.front() == '.') {
      return UnsupportedError(
          "variable name \"{}\" cannot be a zarr key (NetCDF names never contain '/' or start "
          "with '.')",
          v.name);
    }
    if (!seen.insert(v.name).second) {
      return DataLossError("two variables are named \"{}\"", v.name);
    }
    KERCHUNK_RETURN_IF_ERROR(CheckAttributes(v.attributes, fmt::format("variable \"{}\"", v.name)));
  }
  return OkStatus();
}

}  // namespace kerchunk::netcdf3::internal
