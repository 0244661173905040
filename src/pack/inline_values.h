// The inline chunk values of one array in a packed file (docs/packed-format.md, "Inline
// values"): the bytes of its "base64:" values, each distinct value once, concatenated in one
// byte string with their lengths in a column. (Arrays with plain-text values stay in the
// embedded document: text compresses better as itself.)
//
// Python kerchunk inlines every chunk under 100 bytes (SingleHdf5ToZarr) or 500 bytes
// (MultiZarrToZarr) as base64 text, in keys that repeat the array's name, and often the same
// value many times (every all-fill chunk compresses to the same bytes). Here a value costs its
// bytes once plus a few bytes of columns; the container's compressor (packed_container.h) then
// sees every array's values side by side.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

/// The columns of one array's inline values, as written in the file.
struct InlineColumns {
  std::string variable;
  std::vector<uint64_t> chunks;   ///< chunk index of each value, strictly increasing
  std::vector<uint64_t> ids;      ///< per value, its distinct value; empty: all distinct
  std::vector<uint64_t> lengths;  ///< bytes of each distinct value
  std::string data;               ///< the distinct values (or their content), concatenated
  /// Per distinct value: 0 = `data` holds the value; 1-9 = `data` holds the content of a zlib
  /// stream, and the value is zlib's compress2 of it at that level (inline_deflate.h). Empty:
  /// all 0.
  std::vector<uint64_t> deflate;
};

/// The inline values of `array` (its chunks that are inline "base64:" data; it must have no
/// plain-text inline values).
InlineColumns BuildInlineColumns(const ArrayRefs& array);

/// Stores the values that are reproducible zlib streams inflated, when the container's
/// compressor then takes fewer bytes for `data` (measured with it); else leaves `c` as it is.
void StoreInflatedWhenSmaller(InlineColumns& c);

/// Reads the values of validated columns.
class InlineDecoder {
 public:
  /// Validates the columns (counts, orderings, ids, lengths against the data), in time
  /// proportional to the columns. DataLoss naming the field.
  static Result<std::unique_ptr<InlineDecoder>> Make(InlineColumns columns);

  const InlineColumns& columns() const { return c_; }
  size_t size() const { return c_.chunks.size(); }
  /// Position of the value of `chunk`, if the array has one inline.
  std::optional<size_t> Find(uint64_t chunk) const;
  /// The bytes of value `position`: a view into the decoder, valid as long as it. A value
  /// stored inflated is deflated on its first use and kept (thread-safe).
  Result<std::string_view> Value(size_t position) const;

 private:
  explicit InlineDecoder(InlineColumns columns) : c_(std::move(columns)) {}
  std::string_view Stored(uint64_t id) const {
    return std::string_view(c_.data).substr(start_[id], c_.lengths[id]);
  }

  InlineColumns c_;
  std::vector<uint64_t> start_;  // per distinct value: its offset in data
  // Values stored inflated, deflated again on first use; never freed before the decoder, so
  // views into them stay valid.
  mutable std::mutex deflated_mutex_;
  mutable std::vector<std::unique_ptr<const std::string>> deflated_;
};

}  // namespace kerchunk::pack::internal
