// The codec of every integer column of a generator, named once and shared by the writer and
// the reader: a column's type, and so its encoding, cannot differ between them.
#pragma once

#include "column_codec.h"

namespace kerchunk::pack::internal::columns {

inline const IntColumnCodec kPresence{"presence", ColumnType::kUnsigned};
inline const IntColumnCodec kCenters{"lengths.centers", ColumnType::kDrifting};
inline const IntColumnCodec kParameters{"lengths.parameters", ColumnType::kUnsigned};
inline const IntColumnCodec kBlockBits{"lengths.block_bits", ColumnType::kNondecreasing};
inline const IntColumnCodec kLengthValues{"lengths.values", ColumnType::kUnsigned};
inline const IntColumnCodec kEnds{"ends", ColumnType::kDrifting};
inline const IntColumnCodec kGapDefault{"gaps.default", ColumnType::kSigned};
inline const IntColumnCodec kGapIndex{"gaps.index", ColumnType::kNondecreasing};
inline const IntColumnCodec kGapValue{"gaps.value", ColumnType::kSigned};
inline const IntColumnCodec kFileIndex{"files.index", ColumnType::kNondecreasing};
inline const IntColumnCodec kFileUrl{"files.url", ColumnType::kDrifting};
// Inline values (inline_values.h).
inline const IntColumnCodec kInlineChunks{"inline.chunks", ColumnType::kNondecreasing};
inline const IntColumnCodec kInlineIds{"inline.ids", ColumnType::kDrifting};
inline const IntColumnCodec kInlineLengths{"inline.lengths", ColumnType::kUnsigned};
inline const IntColumnCodec kInlineDeflate{"inline.deflate", ColumnType::kUnsigned};

}  // namespace kerchunk::pack::internal::columns
