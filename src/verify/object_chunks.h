// Object (dtype "|O") chunks whose items are not all strings. numcodecs' json2 holds any JSON
// values (Python kerchunk stores compound rows that way), which zarr decodes into an object
// array; the codecs library decodes strings only, so such chunks are checked here for their
// form: the byte codecs decode and the JSON is json2's [items..., "|O", shape] with the chunk's
// number of items.
#pragma once

#include <cstdint>
#include <string_view>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/util/status.h"

namespace kerchunk::verify::internal {

/// Checks a json2 chunk as above; DataLoss saying what is wrong.
Status CheckJson2Chunk(const codecs::Pipeline& pipeline, std::string_view stored,
                       uint64_t expected_items);

}  // namespace kerchunk::verify::internal
