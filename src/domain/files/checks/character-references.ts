/**
 * Named references that spell the characters of a URL scheme or break one up (`&colon;`,
 * `&Tab;`): the ones a smuggled `javascript:` needs. Names are compared case-insensitively, which
 * is looser than HTML and so errs towards decoding.
 */
const NAMED: ReadonlyMap<string, number> = new Map([
  ["colon", 0x3a],
  ["tab", 0x09],
  ["newline", 0x0a],
  ["lpar", 0x28],
  ["rpar", 0x29],
  ["amp", 0x26],
  ["lt", 0x3c],
  ["gt", 0x3e],
  ["quot", 0x22],
  ["apos", 0x27],
  ["sol", 0x2f],
  ["period", 0x2e],
]);
const LONGEST_NAME = 7;
const MAX_CODE_POINT = 0x10ffff;

const Mode = { Idle: 0, Ampersand: 1, Decimal: 2, Hex: 3, Numeric: 4, Named: 5 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

/**
 * Decodes HTML character references (`&#106;`, `&#x6A;`, `&#x0000006a`, `&colon;`) as characters
 * arrive one at a time, handing every resulting character to `emit`, in constant memory: numeric
 * references accumulate their value (any number of leading zeros), named ones keep at most
 * LONGEST_NAME letters. The terminating `;` is optional, as browsers allow; what is not a
 * reference is passed on unchanged.
 */
export class CharacterReferenceDecoder {
  private mode: Mode = Mode.Idle;
  private value = 0;
  private digits = 0;
  private name = "";

  constructor(private readonly emit: (char: number) => void) {}

  /** True when no reference is in progress. */
  get idle(): boolean {
    return this.mode === Mode.Idle;
  }

  push(char: number): void {
    if (this.mode !== Mode.Idle && this.continues(char)) return;
    const terminated = this.mode !== Mode.Idle && char === 0x3b; /* ; */
    this.flush();
    if (terminated) return;
    if (char === 0x26 /* & */) this.mode = Mode.Ampersand;
    else this.emit(char);
  }

  /** Ends a reference in progress (the input stops, or a tag begins). */
  flush(): void {
    const mode = this.mode;
    this.mode = Mode.Idle;
    if ((mode === Mode.Decimal || mode === Mode.Hex) && this.digits > 0) this.emit(Math.min(this.value, MAX_CODE_POINT));
    else if (mode === Mode.Named && NAMED.has(this.name)) this.emit(NAMED.get(this.name)!);
    else if (mode !== Mode.Idle) this.emitRaw(mode);
  }

  /** Whether `char` extends the reference in progress. */
  private continues(char: number): boolean {
    const lower = char | 0x20;
    switch (this.mode) {
      case Mode.Ampersand:
        if (char === 0x23 /* # */) return this.enter(Mode.Numeric);
        if (lower >= 0x61 && lower <= 0x7a) {
          this.mode = Mode.Named;
          this.name = String.fromCharCode(lower);
          return true;
        }
        return false;
      case Mode.Numeric:
        if (lower === 0x78 /* x */) return this.enter(Mode.Hex);
        if (!isDigit(char)) return false;
        this.mode = Mode.Decimal;
        return this.accumulate(char - 0x30, 10);
      case Mode.Decimal:
        return isDigit(char) && this.accumulate(char - 0x30, 10);
      case Mode.Hex:
        if (isDigit(char)) return this.accumulate(char - 0x30, 16);
        return lower >= 0x61 && lower <= 0x66 && this.accumulate(lower - 0x57, 16);
      case Mode.Named:
        if (lower < 0x61 || lower > 0x7a || this.name.length >= LONGEST_NAME) return false;
        this.name += String.fromCharCode(lower);
        return true;
      default:
        return false;
    }
  }

  private enter(mode: Mode): true {
    this.mode = mode;
    this.value = 0;
    this.digits = 0;
    return true;
  }

  /** Saturates above the last code point, so a thousand digits cost nothing. */
  private accumulate(digit: number, base: number): true {
    this.value = Math.min(this.value * base + digit, MAX_CODE_POINT + 1);
    this.digits++;
    return true;
  }

  /** What was read of a reference that turned out not to be one. */
  private emitRaw(mode: Mode): void {
    this.emit(0x26);
    if (mode === Mode.Numeric || mode === Mode.Hex) this.emit(0x23);
    if (mode === Mode.Hex) this.emit(0x78);
    if (mode === Mode.Named) for (let i = 0; i < this.name.length; i++) this.emit(this.name.charCodeAt(i));
  }
}

function isDigit(char: number): boolean {
  return char >= 0x30 && char <= 0x39;
}
