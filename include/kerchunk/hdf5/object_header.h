// Object headers (version 1 and version 2 "OHDR" with "OCHK" continuation blocks): iteration over
// the header messages of one object, enough to find its Data Layout message.
// Format: HDF5 File Format Specification, "IV.A.1 Disk Format: Level 2A1 - Data Object Header
// Prefix" and "IV.A.2.q. The Object Header Continuation Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_dataobject_hdr_prefix
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// Header message type numbers used by this library.
inline constexpr uint16_t kNilMessage = 0x0000;
inline constexpr uint16_t kDataLayoutMessage = 0x0008;
inline constexpr uint16_t kContinuationMessage = 0x0010;

/// Bit 1 of the message flags: the message is shared (stored elsewhere, referenced here).
inline constexpr uint8_t kMessageFlagShared = 0x02;

/// One header message: a view of its data bytes inside the file image.
struct HeaderMessage {
  uint16_t type = 0;
  uint8_t flags = 0;
  /// File offset of data[0], for error messages.
  uint64_t file_offset = 0;
  std::span<const std::byte> data;

  /// A reader over the message data whose errors name `what` (a string literal).
  ByteReader Reader(std::string_view what) const { return ByteReader(data, file_offset, what); }
};

/// Return true to continue with the next message, false to stop.
using HeaderMessageVisitor = std::function<Result<bool>(const HeaderMessage&)>;

/// Visits the messages of the object header at HDF5 address `address` in storage order,
/// following continuation messages (which are visited too). Guards: a continuation block that
/// is visited twice (a cycle), more than 4096 blocks, or a block outside the file is DataLoss.
/// Checksums are not verified; message contents are not interpreted.
Status ForEachHeaderMessage(const File& file, uint64_t address, const HeaderMessageVisitor& visit);

/// The first message of `type` in the object header at `address`; NotFound when there is none.
Result<HeaderMessage> FindHeaderMessage(const File& file, uint64_t address, uint16_t type);

}  // namespace kerchunk::hdf5
