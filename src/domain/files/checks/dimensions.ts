/** What a header parser found: the pixel size, or why the header could not be read. */
export type Dimensions = { readable: true; width: number; height: number } | { readable: false; why: string };

export function dimensions(width: number, height: number): Dimensions {
  return { readable: true, width, height };
}

export function unreadable(why: string): Dimensions {
  return { readable: false, why };
}
