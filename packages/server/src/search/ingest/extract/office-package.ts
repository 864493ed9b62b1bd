import { type ExtractContext, unreadable } from './options.js';
import { XmlBudget } from './xml.js';
import { ZipArchive } from './zip.js';

/** How an Office reader opens its package. */
export interface OfficePackageSpec {
  /** The format's name in messages: `DOCX`, `PPTX`, `XLSX`. */
  label: string;
  /** The part every such package has (`word/document.xml`); without it the file is `unreadable_document`. */
  mainPart: string;
  /**
   * The parts the reader may unpack, when it knows them up front: their declared sizes are checked
   * against the budget on opening, so a package that declares too much fails early, `too_large`.
   */
  reads?: { names: readonly string[]; pattern: RegExp };
}

/**
 * Opens an Office (zip) package for a reader: its directory (`unreadable_document` if it is no zip or
 * lacks its main part), the declared sizes of the parts it reads checked, and the document's XML budget.
 */
export function openOfficePackage(
  bytes: Uint8Array,
  ctx: ExtractContext,
  { label, mainPart, reads }: OfficePackageSpec,
): { zip: ZipArchive; budget: XmlBudget } {
  const zip = ZipArchive.open(bytes, ctx, label);
  if (!zip.has(mainPart)) throw unreadable(ctx.key, label, `no ${mainPart} part`);
  if (reads) zip.checkDeclared((name) => reads.names.includes(name) || reads.pattern.test(name));
  return { zip, budget: XmlBudget.of(ctx) };
}
