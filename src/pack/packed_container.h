// The compact form of a packed file on disk: the 4 bytes "KCPK", then one zstd frame holding the
// packed JSON text, compressed against a fixed dictionary of the words packed files and Kerchunk
// metadata are made of (packed_dictionary.cpp). `--readable` writes the JSON text itself.
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

/// Bytes the packed JSON text of a container may hold: a reader decompresses it whole.
inline constexpr uint64_t kMaxContainerTextBytes = uint64_t{16} << 30;

/// The raw-content zstd dictionary of the container (never changes: files depend on it).
std::string_view ContainerDictionary();

/// True when `bytes` start with the container magic.
inline bool IsContainer(std::string_view bytes) { return bytes.starts_with(kContainerMagic); }

/// The container of `json_text`.
std::string WrapContainer(std::string_view json_text);

/// The packed JSON text of a container (DataLoss, naming what is wrong, for a damaged frame);
/// `bytes` unchanged when they are not a container.
Result<std::string> UnwrapContainer(std::string bytes);

}  // namespace kerchunk::pack::internal
