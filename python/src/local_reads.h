// Reads the byte ranges of local files that one batch of keys refers to: each file is opened
// once per batch, its size checked against every range, and the ranges read with pread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::python::internal {

/// One range to read into `bytes`; `key` and `url` name it in errors, `slot` is the caller's.
struct LocalRead {
  std::string path;
  uint64_t offset = 0;
  std::optional<uint64_t> length;  ///< nullopt: the whole file
  std::string_view key;
  std::string_view url;
  size_t slot = 0;
  std::string bytes;
};

/// Reads every range (files in order of first use, each opened once). DataLoss when a range
/// ends past its file ("key K: bytes [a, b) of URL are past its end (N bytes)"); NotFound /
/// IoError when a file cannot be opened or read, naming key and URL.
Status ReadLocalRanges(std::vector<LocalRead>& reads);

}  // namespace kerchunk::python::internal
