// Shared header messages: a message stored once and referenced from object headers, either in
// another object header (a committed datatype) or in the file's shared object header message
// (SOHM) heap, found through the superblock extension's Shared Message Table ("SMTB").
// Format: HDF5 File Format Specification, "IV.A.2.o... Shared Message" (section "IV.A.2 Disk
// Format: Level 2A2 - Data Object Header Messages", shared messages) and "III.H. Disk Format:
// Level 1H - Shared Object Header Message Table",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_infra_sohm
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// The message of type `type` that the shared message `pointer` (the data of a header message
/// whose flags say "shared") refers to. Nested sharing is followed at most 8 times. DataLoss for
/// malformed pointers or tables; NotFound when the target has no such message.
Result<HeaderMessage> ResolveSharedMessage(const File& file, uint16_t type,
                                           const HeaderMessage& pointer);

/// The message of type `type` stored in the SOHM heap under the 8-byte heap ID `id` (how dense
/// attribute storage refers to a shared attribute).
Result<HeaderMessage> ReadSharedHeapMessage(const File& file, uint16_t type,
                                            std::span<const std::byte> id);

}  // namespace kerchunk::hdf5
