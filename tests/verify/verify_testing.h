// Helpers of the verify tests: generated indexes to break in known ways, and running
// `kerchunk verify` on them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/reference_set.h"
#include "support/test_env.h"

namespace kerchunk::testing {

/// Runs `kerchunk verify ARGS` (ARGS already quoted for the shell).
CommandResult RunVerify(const std::string& args);

/// Runs `kerchunk <command> ARGS`.
CommandResult RunKerchunk(const std::string& command, const std::string& args);

/// Reads a Kerchunk file, lets `edit` change it and writes it to `out`.
void EditReferences(const std::string& in, const std::string& out,
                    const std::function<void(ReferenceSet&)>& edit);

/// Replaces reference `key` ("tas/1.0.0") of its array through `edit` (the array is rebuilt,
/// as the model's columns are read-only).
void EditChunk(ReferenceSet& refs, std::string_view key,
               const std::function<void(ChunkRef&)>& edit);

/// Edits the JSON document of a metadata entry (e.g. "tas/.zarray").
void EditMetadata(ReferenceSet& refs, std::string_view key,
                  const std::function<void(json::Value&)>& edit);

/// The first byte-range chunk of `array` whose range ends where another chunk of the same file
/// starts (so a shift or a longer length overlaps a neighbour); its key.
std::string ChunkFollowedByAnother(const ReferenceSet& refs, std::string_view array);

/// Copies every regular file of `from` into `to` (created).
void CopyFolder(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace kerchunk::testing
