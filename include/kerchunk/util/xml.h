// Text for XML documents (the JUnit report of verify, the SVG plots of bench).
#pragma once

#include <string>
#include <string_view>

namespace kerchunk {

/// Appends `text` escaped for XML attributes and character data (& < > " '). Control
/// characters other than tab and newline cannot appear in XML 1.0 at all (not even escaped),
/// so they become '?'.
void AppendXmlEscaped(std::string& out, std::string_view text);

/// `text` escaped as AppendXmlEscaped does.
std::string XmlEscaped(std::string_view text);

}  // namespace kerchunk
