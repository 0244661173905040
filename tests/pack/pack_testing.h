// Helpers for the pack tests: small reference sets written by hand, and the round trip
// pack -> parse -> unpack with its checks.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kerchunk/pack/pack.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/refs/reference_set.h"

namespace kerchunk::pack::testing {

/// A .zarray document for an array of this shape and chunk shape.
std::string Zarray(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                   char separator = '.');

/// Adds an array with its .zarray to `refs` and returns its index in refs.arrays.
size_t AddArray(ReferenceSet& refs, const std::string& path, const std::vector<uint64_t>& shape,
                const std::vector<uint64_t>& chunks, char separator = '.');

/// Packs `refs`, parses the text and expands it; checks (gtest failures) that every key comes
/// back with its value and that the checksum matches. Returns the packed text (with
/// `options.binary`, the binary container: the text alone is not a file then).
std::string ExpectRoundTrip(const ReferenceSet& refs, const PackOptions& options = {});

/// The packed text of `refs` (asserting success).
std::string PackText(const ReferenceSet& refs, const PackOptions& options = {});

}  // namespace kerchunk::pack::testing
