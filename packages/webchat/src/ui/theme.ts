import { fontStack, type ResolvedConfiguration } from '../config.js';
import { brandColors } from './colors.js';

/** The CSS custom properties the stylesheet reads, set on the root element from the configuration. */
export function rootStyle(config: ResolvedConfiguration): Record<string, string> {
  const colors = brandColors(config.color, config.themeMode);
  return {
    '--pw-color': config.color,
    '--pw-fill': colors.fill,
    '--pw-on-color': colors.onFill,
    '--pw-color-text': colors.text,
    '--pw-radius': `${config.radius}rem`,
    '--pw-font': fontStack(config.fontFamily),
  };
}
