// Bad input (degenerate): nothing but comments: no module to read.
// ERROR: Could not parse entire input
