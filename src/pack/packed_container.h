// The compact form of a packed file on disk: the 4 bytes "KCPB", one zstd frame holding the
// packed JSON text, compressed against a fixed dictionary of the words packed files and Kerchunk
// metadata are made of (packed_dictionary.cpp), then the blob section holding the bytes of the
// binary fields raw. (Files before 2026-11-27 are "KCPK" + the frame, base64 inside the JSON.)
// `--readable` writes the JSON text itself.
//
// Why: inside JSON, binary columns and inline blocks are base64 text, 4/3 of their bytes, which
// made packed files of inline-heavy indexes larger than `zstd -19` of their Kerchunk JSON; and a
// small index is mostly metadata text, which a general compressor sees too little of to learn.
// The frame gives the base64 overhead back and the dictionary supplies the vocabulary, so the
// compact form is smaller than `zstd -19` of the input's JSON on every index of the shared
// corpus (docs/packed-format.md, "Container"). Opening decompresses the whole frame: time and
// memory stay proportional to the file.
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

inline constexpr std::string_view kContainerMagic = "KCPK";
/// The binary container: the JSON frame, then the blob section its "@<offset>+<length>" strings
/// point into.
inline constexpr std::string_view kBinaryContainerMagic = "KCPB";

/// Bytes the packed JSON text (or the blob section) of a container may hold: a reader
/// decompresses it whole.
inline constexpr uint64_t kMaxContainerTextBytes = uint64_t{16} << 30;

/// How the blob section of a binary container is stored (its first byte).
enum class BlobCoding : uint8_t {
  kRaw = 0,   ///< the bytes themselves
  kZstd = 1,  ///< one zstd frame (no dictionary) recording its content size
};

/// Appends a blob section: the coding byte, the stored length (8 bytes, little-endian), the
/// stored bytes.
void AppendBlobSection(BlobCoding coding, std::string_view stored, std::string& out);

/// The raw-content zstd dictionary of the container (never changes: files depend on it).
std::string_view ContainerDictionary();

/// True when `bytes` start with either container magic.
inline bool IsContainer(std::string_view bytes) {
  return bytes.starts_with(kContainerMagic) || bytes.starts_with(kBinaryContainerMagic);
}

/// The container of `json_text`.
std::string WrapContainer(std::string_view json_text);

/// The binary container of `json_text` and the blob section it refers to. The blobs are stored
/// raw unless zstd shrinks them by more than a tenth (they are mostly entropy-coded already).
std::string WrapBinaryContainer(std::string_view json_text, std::string_view blobs);

/// What a container holds. `blobs()` views the input given to UnwrapContainer (raw section) or
/// the decompressed copy held here, so the input must outlive it.
struct UnwrappedContainer {
  std::string text;
  bool binary = false;  ///< a binary container: "@" strings of `text` refer to blobs()
  std::string blob_copy;
  std::string_view raw_blobs;

  std::string_view blobs() const { return blob_copy.empty() ? raw_blobs : blob_copy; }
};

/// The packed JSON text (and blob section) of a container, DataLoss naming what is wrong for a
/// damaged frame; the text is `bytes` themselves when they are not a container.
Result<UnwrappedContainer> UnwrapContainer(std::string_view bytes);

}  // namespace kerchunk::pack::internal
