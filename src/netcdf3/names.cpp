// Name checks of ParseHeader. NetCDF names are UTF-8; they become zarr keys (variables), JSON
// object keys (attributes) and _ARRAY_DIMENSIONS entries (dimensions), so bytes that are not
// UTF-8 would make the references unreadable, and a variable name with '/' or a leading '.'
// would address another key of the store.
#include <set>

#include "netcdf3/layout.h"

namespace kerchunk::netcdf3::internal {
namespace {

Status CheckText(std::string_view name, std::string_view what) {
  if (!IsValidUtf8(name)) {
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

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      extra = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i <= static_cast<size_t>(extra)) return false;
    for (int k = 1; k <= extra; ++k) {
      auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr uint32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMinForLength[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

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
