// `kerchunk pack`: replaces the chunk references of a Kerchunk reference set by compact
// generators (docs/packed-format.md), exactly: unpacking gives back the same keys and values.
//
// Per group of arrays sharing a chunk grid, a generator stores the file list once, where chunks
// are missing (run lengths), the chunk lengths as Rice-coded residuals of a prediction, and the
// offsets as the few places where a chunk does not start where the previous one ended. The
// packer chooses, per group, the chunk order (chunk-major, variable-major or per file) and the
// length predictor that give the smallest file. Inline chunk values are stored as bytes, each
// distinct value once, in zstd-compressed blocks per array. Metadata and everything else are
// kept in an embedded Kerchunk document. `kerchunk pack` writes the JSON text in a zstd container
// followed by the raw bytes of the binary fields (packed_container.h) unless asked for the
// readable form.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/refs/digest.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack {

struct PackOptions {
  /// References between checkpoints, 1..65536. A lookup decodes fewer than this many; each
  /// checkpoint costs a few bytes. 256 keeps lookups ~1 us at < 0.05 byte per reference.
  uint32_t checkpoint_interval = 256;
  /// Write every column as a plain JSON array of its values and chunk lengths unpredicted (a
  /// larger file that people can read); the default is base64 of compact binary columns.
  bool readable = false;
  /// The bytes of binary columns, lengths streams and inline data go raw to PackedText::blobs,
  /// the JSON naming them "@<offset>+<length>": what the compact file (CompactPackedFile) holds,
  /// with no base64 to encode or decode. Without it they are base64 in the JSON text, which is
  /// then a packed file on its own. Ignored with `readable`.
  bool binary = false;
};

/// What one generator holds and how well the generator form fits it.
struct GeneratorSummary {
  std::vector<std::string> variables;
  std::vector<uint64_t> chunk_grid;
  uint64_t references = 0;
  std::string order;      ///< "chunk-major", "variable-major" or "interleave N"
  std::string predictor;  ///< length predictor: "constant", "previous", "position" or "plain"
  uint64_t slots = 0, skipped = 0, unique = 0, modal_length = 0, gaps = 0, file_switches = 0;
  double gfactor = 0;  ///< 1 - (unique + skipped) / slots
  uint64_t bytes = 0;  ///< its share of the packed file
};

struct PackSummary {
  uint64_t keys = 0;              ///< keys of the reference set
  uint64_t chunk_references = 0;  ///< keys that are chunks of an array with a .zarray
  uint64_t generated = 0;         ///< references held by generators
  uint64_t verbatim = 0;          ///< keys kept in the embedded Kerchunk document
  uint64_t inline_values = 0;     ///< inline chunk values held by the "inline" section
  uint64_t inline_distinct = 0;   ///< of those, distinct values (each stored once)
  /// Of the distinct values, zlib streams stored inflated (zlib reproduces them exactly; they
  /// compress better inflated).
  uint64_t inline_inflated = 0;
  std::vector<GeneratorSummary> generators;
  ReferenceDigest checksum;     ///< of the whole reference set
  uint64_t verbatim_bytes = 0;  ///< the embedded Kerchunk document of the verbatim keys
  uint64_t inline_bytes = 0;    ///< the "inline" section
  /// Set by PackFile (kerchunk/commands/pack.h) for the compact form: bytes of the JSON text
  /// and binary fields the container compresses (the byte counts above are shares of them); 0
  /// for --readable.
  uint64_t text_bytes = 0;
  uint64_t input_bytes = 0;  ///< set by PackFile: size of the input file
  uint64_t output_bytes = 0;
  std::string output;  ///< set by PackFile: the path written ("-": standard output)
};

struct PackedText {
  std::string text;   ///< the packed JSON document
  std::string blobs;  ///< with PackOptions::binary, the bytes its "@" strings refer to
  PackSummary summary;
};

/// Packs a finalized reference set (see ReferenceSet::Finalize). Arrays without a .zarray entry
/// describing their grid, and inline or whole-file chunks, stay verbatim. Fails (InvalidArgument)
/// on invalid options or an array whose chunks are not in increasing order.
Result<PackedText> Pack(const ReferenceSet& refs, const PackOptions& options = {});

/// The bytes of a packed file in its compact form, as `kerchunk pack` writes it: the packed JSON
/// (PackedText::text, with anything appended such as the source record) in the zstd container
/// of docs/packed-format.md ("Container"), followed by its blob section when it was packed with
/// PackOptions::binary. PackedIndex reads every form.
std::string CompactPackedFile(const PackedText& packed);
/// The same for JSON text alone (base64 fields): the text-only container.
std::string CompactPackedFile(std::string_view packed_json);

}  // namespace kerchunk::pack
