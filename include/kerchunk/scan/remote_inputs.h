// Remote inputs of `kerchunk scan`: http(s):// URLs, s3:// objects, prefixes and patterns,
// turned into the URLs of the files to read (local inputs: input_list.h).
#pragma once

#include <string>
#include <vector>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// The file names a bucket listing keeps: a listing cannot look at each object's first bytes as
/// a folder search does (that would be a request per object), so it goes by the name.
bool HasNetcdfOrHdf5Suffix(std::string_view key);

/// Expands one remote input (io::IsRemoteUrl) into URLs, in key order:
///  - "http(s)://..." is taken as it is (HTTP has no listing: a pattern is InvalidArgument);
///  - "s3://bucket/key" (no *, ? or [, not ending in "/") is that object, not checked here;
///  - "s3://bucket/prefix/" or "s3://bucket" lists the prefix (ListObjectsV2, every page) and
///    keeps the keys with a NetCDF/HDF5 suffix (HasNetcdfOrHdf5Suffix); none is NotFound;
///  - "s3://bucket/dir/*.nc" lists the prefix before the first *, ? or [ and keeps the URLs the
///    pattern matches (fnmatch(3); * and ? do not match "/"); none is NotFound.
/// URLs stay as given (s3:// stays s3://), so the references name them so.
Result<std::vector<std::string>> ExpandRemoteInput(const std::string& input,
                                                   const io::SourceOptions& options);

}  // namespace kerchunk
