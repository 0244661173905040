#include "kerchunk/scan/remote_inputs.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>

namespace kerchunk {
namespace {

bool HasPatternCharacters(std::string_view s) { return s.find_first_of("*?[") != s.npos; }

Result<std::vector<std::string>> ExpandS3(const std::string& input,
                                          const io::SourceOptions& options) {
  const bool pattern = HasPatternCharacters(input);
  const bool listing = pattern || input.ends_with('/') ||
                       input.find('/', std::string_view("s3://").size()) == std::string::npos;
  if (!listing) return std::vector<std::string>{input};
  const std::string prefix = pattern ? input.substr(0, input.find_first_of("*?[")) : input;
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<io::ObjectInfo> objects,
                            io::ListS3Objects(prefix, options));
  std::vector<std::string> out;
  for (const io::ObjectInfo& object : objects) {
    const bool keep = pattern ? ::fnmatch(input.c_str(), object.url.c_str(), FNM_PATHNAME) == 0
                              : HasNetcdfOrHdf5Suffix(object.url);
    if (keep) out.push_back(object.url);
  }
  if (out.empty()) {
    if (pattern) return NotFoundError("{}: no object matches this pattern", input);
    return NotFoundError("{}: no object with a NetCDF or HDF5 name (.nc, .h5, ...) here", input);
  }
  return out;
}

}  // namespace

bool HasNetcdfOrHdf5Suffix(std::string_view key) {
  static constexpr std::array<std::string_view, 9> kSuffixes = {
      ".nc", ".nc3", ".nc4", ".netcdf", ".cdf", ".h5", ".hdf5", ".he5", ".hdf"};
  std::string lower(key.substr(key.find_last_of('/') + 1));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::any_of(kSuffixes.begin(), kSuffixes.end(),
                     [&](std::string_view s) { return lower.ends_with(s); });
}

Result<std::vector<std::string>> ExpandRemoteInput(const std::string& input,
                                                   const io::SourceOptions& options) {
  if (input.starts_with("s3://")) return ExpandS3(input, options);
  if (HasPatternCharacters(input.substr(0, input.find('?')))) {
    return InvalidArgumentError(
        "{}: patterns are expanded for s3:// and local paths only (an HTTP server has no "
        "listing); name the files, or list them in --files-from",
        input);
  }
  return std::vector<std::string>{input};
}

}  // namespace kerchunk
