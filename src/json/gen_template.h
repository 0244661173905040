// Expansion of Kerchunk "gen" entries and "{{name}}" templates (internal to the JSON reader).
//
// Python kerchunk renders these with jinja2. We support the subset the reference specification
// uses: {{name}} substitution and integer arithmetic on dimension variables
// ({{(i + 90) * 1000}}, with + - * // % and parentheses). Anything else is an Unsupported error
// naming the template, never a silent misreading.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

#include "kerchunk/util/status.h"

namespace kerchunk::internal {

/// Values a template can name: dimension variables (integers) and templates (strings).
using TemplateValue = std::variant<int64_t, std::string>;
using TemplateScope = std::map<std::string, TemplateValue, std::less<>>;

/// Renders every "{{ expr }}" of `text` within `scope`.
Result<std::string> RenderTemplate(std::string_view text, const TemplateScope& scope);

/// The start of a template (at most 60 characters, then "...") for error messages, which stay
/// one readable line whatever the input's length.
std::string AbbreviatedTemplate(std::string_view text);

/// True when `text` contains "{{" (worth rendering).
inline bool HasTemplate(std::string_view text) { return text.find("{{") != std::string_view::npos; }

}  // namespace kerchunk::internal
