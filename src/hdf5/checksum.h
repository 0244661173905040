// The checksum of HDF5 metadata, shared by the native reader (which checks it where a wrong
// byte would silently move data, e.g. the metadata cache image) and the libhdf5 boundary
// (which rewrites the superblock's). Internal to the HDF5 component.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace kerchunk::hdf5 {

/// Bob Jenkins' lookup3 hashlittle() of `data`, the checksum of HDF5 metadata (initval 0).
uint32_t JenkinsLookup3(std::span<const std::byte> data, uint32_t initval = 0);

}  // namespace kerchunk::hdf5
