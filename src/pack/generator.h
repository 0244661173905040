// The columns of one generator and of a whole packed file, as the JSON holds them (decoded from
// their column encodings but not yet validated against each other; GeneratorDecoder does that).
// docs/packed-format.md describes every field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "column_codec.h"
#include "inline_values.h"
#include "kerchunk/refs/digest.h"

namespace kerchunk::pack::internal {

inline constexpr std::string_view kFormatName = "kerchunk-packed";
/// The newest version this code reads and writes. Files are written with the lowest version
/// that holds them (FormatVersionFor), so older readers read what they can.
inline constexpr uint64_t kFormatVersion = 3;

/// 1 without "inline" values (older readers read it when it is not in the container,
/// packed_container.h), 2 with them, 3 when some are stored inflated ("deflate"): a version-2
/// reader would skip that field and return the inflated bytes as the values.
inline uint64_t FormatVersionFor(const std::vector<InlineColumns>& inline_values) {
  if (inline_values.empty()) return 1;
  for (const InlineColumns& c : inline_values) {
    if (!c.deflate.empty()) return 3;
  }
  return 2;
}

/// How a chunk length is predicted before its residual is Rice-coded.
enum class Predictor : uint8_t {
  kConstant,  ///< centers[var]: a per-variable median
  kPrevious,  ///< the previous length of the same variable in the block, else centers[var]
  kPosition,  ///< centers[var * inner + chunk % inner]: the per-variable, per-position median
};
std::string_view PredictorName(Predictor p);
/// The most variables the kPrevious predictor supports (its state is one word per variable).
inline constexpr uint64_t kMaxPreviousVariables = 64;

struct LengthColumns {
  bool plain = false;            ///< readable form: `values` holds every length
  std::vector<uint64_t> values;  ///< plain: the lengths
  Predictor predictor = Predictor::kConstant;
  std::vector<uint64_t> centers;     ///< predictor parameters (see Predictor)
  std::vector<uint64_t> parameters;  ///< Rice parameter of each block (0..56, or 255: all zero)
  std::vector<uint64_t> block_bits;  ///< bit position where each block starts
  uint64_t bits = 0;                 ///< bits in the stream
  std::string data;                  ///< the stream, ceil(bits / 8) bytes
};

/// Informative figures, written for people and summaries; readers do not depend on them.
struct GeneratorStats {
  uint64_t slots = 0;         ///< variables x chunks of the grid
  uint64_t skipped = 0;       ///< slots without a reference in this generator
  uint64_t unique = 0;        ///< references whose length differs from the modal length
  uint64_t modal_length = 0;  ///< the most common length (smallest on ties)
  uint64_t gaps = 0;          ///< references not starting where the previous one ended
  uint64_t file_switches = 0;
  double gfactor = 0;  ///< 1 - (unique + skipped) / slots
};

struct GeneratorColumns {
  std::vector<std::string> variables;  ///< array paths sharing the chunk grid
  std::vector<uint64_t> chunk_grid;    ///< chunks per dimension, without dimensions of 1 chunk
  uint64_t interleave = 1;             ///< see StreamOrder
  uint64_t references = 0;             ///< present slots
  uint64_t checkpoint_interval = 256;  ///< references per block
  std::vector<uint64_t> presence;      ///< absent/present run lengths
  LengthColumns lengths;
  std::vector<uint64_t> ends;  ///< per block: end (offset + length) of the reference before it
  std::vector<uint64_t> gap_default;           ///< per variable: usual offset - previous end
  std::vector<uint64_t> gap_index, gap_value;  ///< offset - (previous end + default), where not 0
  std::vector<uint64_t> file_index, file_url;  ///< where the URL id changes, and to what
  GeneratorStats stats;
};

/// Chunk counts without the dimensions of one chunk: arrays whose squeezed counts agree have
/// the same linear chunk indexes (e.g. a record variable [n, 1, 1] and its bounds [n, 1]).
inline std::vector<uint64_t> SqueezedCounts(const std::vector<uint64_t>& counts) {
  std::vector<uint64_t> out;
  for (uint64_t c : counts) {
    if (c != 1) out.push_back(c);
  }
  return out;
}

/// A packed file: the Kerchunk document of everything not generated or inline, URLs, inline
/// values and generators.
struct PackedContents {
  ReferenceDigest checksum;
  std::string kerchunk_json;  ///< the embedded Kerchunk v1 document (JSON text, decompressed)
  std::vector<std::string> urls;
  std::vector<InlineColumns> inline_values;
  std::vector<GeneratorColumns> generators;
};

/// Appends the JSON object of one array's inline values (docs/packed-format.md).
void AppendInline(std::string& out, const InlineColumns& c, bool readable,
                  const ByteFields& bytes = {});

/// The embedded document as the file holds it: `"kerchunk":{...}`.
std::string EmbeddedDocumentMember(std::string_view kerchunk_json);

/// Writes the text of a packed file. Generators are written as they are added, each once, into
/// the buffer that becomes the file; the head (format, checksum, embedded document, URLs), known
/// only at the end, is then put in front of them. The generators are nearly all of a large file,
/// and on the project's VM every first-touched byte of memory costs ~3.5 ns (docs/bench.md), so
/// they are not copied from one string into another.
class PackedTextWriter {
 public:
  /// `readable`: plain JSON arrays instead of base64 columns. `expected_bytes`: room reserved
  /// for the generators and the head (more only costs address space, never touched).
  /// `bytes`: where binary fields go (base64 in the text by default).
  PackedTextWriter(bool readable, size_t expected_bytes, ByteFields bytes = {});

  /// Appends a generator.
  void Add(const GeneratorColumns& g);
  /// Bytes the last Add wrote, text and blobs.
  size_t last_size() const {
    return text_.size() - last_mark_ +
           (bytes_.blobs() ? bytes_.blobs()->size() - last_blob_mark_ : 0);
  }
  /// Takes back the last Add (once).
  void TakeBackLast();

  /// The whole text; the writer is spent. `document` is the embedded document's member
  /// (EmbeddedDocumentMember); `inline_text` the inline objects (AppendInline), joined by ",\n".
  std::string Finish(const ReferenceDigest& checksum, std::string_view document,
                     const std::vector<std::string>& urls, std::string_view inline_text,
                     uint64_t version);

 private:
  bool readable_;
  ByteFields bytes_;
  std::string text_;  // the generators, joined by ",\n"
  size_t generators_ = 0, last_mark_ = 0, last_blob_mark_ = 0;
};

/// Serializes to the packed JSON text; `readable` writes plain JSON arrays instead of base64.
std::string SerializePacked(const PackedContents& contents, bool readable);
/// Parses packed JSON text: syntax, types, format name and version, column encodings. Errors:
/// InvalidArgument for malformed JSON or a file that is not a packed file, Unsupported for a
/// newer format version, DataLoss for a malformed field (naming the generator and the field).
/// `blobs`: the blob section of a binary container, which "@<offset>+<length>" strings of the
/// text refer to; nullptr for text alone (such strings are then DataLoss).
Result<PackedContents> ParsePacked(std::string_view text, const std::string_view* blobs = nullptr);

}  // namespace kerchunk::pack::internal
