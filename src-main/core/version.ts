/** The tool's version; a test keeps it equal to package.json's. */
export const TOOL_VERSION = '0.1.0';
