/** The webchat's own styles, inside its shadow root (CSS custom properties carry the theme). */
export const STYLES = `
:host { all: initial; }
.pw-root {
  --pw-color: #3276EA;
  --pw-fill: #3276EA;
  --pw-color-text: #2a64c7;
  --pw-radius: 1rem;
  --pw-bg: #ffffff;
  --pw-fg: #1d2330;
  --pw-muted: #5b6476;
  --pw-surface: #f2f4f8;
  --pw-border: #dde1ea;
  --pw-on-color: #ffffff;
  font-family: var(--pw-font, system-ui, sans-serif);
  font-size: 15px;
  line-height: 1.45;
  color: var(--pw-fg);
  -webkit-text-size-adjust: 100%;
}
.pw-root[data-theme='dark'] {
  --pw-bg: #161a22;
  --pw-fg: #e8ebf2;
  --pw-muted: #a3abbb;
  --pw-surface: #232937;
  --pw-border: #343b4c;
}
.pw-root *, .pw-root *::before, .pw-root *::after { box-sizing: border-box; }
.pw-fab {
  position: fixed; inset-inline-end: 20px; bottom: 20px; z-index: 2147483000;
  width: 56px; height: 56px; border-radius: 50%; border: 0; padding: 0; cursor: pointer;
  background: var(--pw-fill); color: var(--pw-on-color);
  display: flex; align-items: center; justify-content: center;
  box-shadow: 0 6px 20px rgba(0,0,0,.22);
}
.pw-fab img { width: 100%; height: 100%; border-radius: 50%; object-fit: cover; }
.pw-fab:focus-visible, .pw-root button:focus-visible, .pw-root a:focus-visible, .pw-root textarea:focus-visible, .pw-root select:focus-visible {
  outline: 3px solid var(--pw-color); outline-offset: 2px;
}
.pw-badge {
  position: absolute; top: -4px; inset-inline-end: -4px; min-width: 22px; height: 22px; padding: 0 6px;
  border-radius: 11px; background: #d93025; color: #fff; font-size: 12px; font-weight: 700;
  display: flex; align-items: center; justify-content: center;
}
.pw-window {
  position: fixed; inset-inline-end: 20px; bottom: 88px; z-index: 2147483001;
  width: 400px; height: min(640px, calc(100vh - 108px));
  display: flex; flex-direction: column; overflow: hidden;
  background: var(--pw-bg); color: var(--pw-fg);
  border: 1px solid var(--pw-border); border-radius: calc(var(--pw-radius) * 1);
  box-shadow: 0 12px 40px rgba(0,0,0,.25);
}
.pw-window[hidden] { display: none; }
.pw-root[data-layout='fullscreen'] .pw-window,
.pw-root[data-layout='fullscreen'] .pw-window[hidden] {
  display: flex; inset: 0; width: 100%; height: 100%; border: 0; border-radius: 0; box-shadow: none;
}
@media (max-width: 767.98px) {
  .pw-window { inset: 0; width: 100%; height: 100%; height: 100dvh; border: 0; border-radius: 0; }
  /* The visual viewport (set from window.visualViewport): the composer stays above the keyboard. */
  .pw-root .pw-window, .pw-root[data-layout='fullscreen'] .pw-window {
    top: var(--pw-vv-top, 0px); bottom: auto; height: var(--pw-vv-height, 100dvh);
  }
}
.pw-header {
  display: flex; gap: 12px; align-items: flex-start; padding: 14px 16px;
  border-bottom: 1px solid var(--pw-border);
}
.pw-header[data-variant='solid'] { background: var(--pw-fill); color: var(--pw-on-color); border-bottom: 0; }
.pw-header[data-variant='glass'] {
  background: color-mix(in srgb, var(--pw-bg) 70%, transparent);
  -webkit-backdrop-filter: blur(12px); backdrop-filter: blur(12px);
}
.pw-avatar { width: 40px; height: 40px; border-radius: 50%; object-fit: cover; flex: none; }
.pw-title { flex: 1; min-width: 0; }
.pw-title h2 { margin: 0; font-size: 17px; font-weight: 650; }
.pw-title p { margin: 2px 0 0; font-size: 13px; opacity: .85; }
.pw-links { display: flex; flex-wrap: wrap; gap: 4px 12px; margin: 6px 0 0; padding: 0; list-style: none; font-size: 13px; }
.pw-links a { color: inherit; }
.pw-icon-btn {
  flex: none; width: 36px; height: 36px; border: 0; border-radius: 8px; cursor: pointer;
  background: transparent; color: inherit; display: flex; align-items: center; justify-content: center;
}
.pw-icon-btn:hover { background: color-mix(in srgb, currentColor 12%, transparent); }
.pw-log-wrap { flex: 1; min-height: 0; position: relative; display: flex; flex-direction: column; }
.pw-log { flex: 1; overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 10px; }
.pw-msg { display: flex; flex-direction: column; max-width: 85%; align-self: flex-start; }
.pw-msg[data-from='user'] { align-self: flex-end; align-items: flex-end; }
.pw-bubble {
  padding: 9px 13px; border-radius: calc(var(--pw-radius) * .9); background: var(--pw-surface);
  overflow-wrap: anywhere;
}
.pw-msg[data-from='user'] .pw-bubble { background: var(--pw-fill); color: var(--pw-on-color); }
.pw-root[data-variant='soft'] .pw-msg[data-from='user'] .pw-bubble {
  background: color-mix(in srgb, var(--pw-color) 18%, var(--pw-bg)); color: var(--pw-fg);
}
.pw-bubble p { margin: 0 0 .5em; } .pw-bubble p:last-child { margin-bottom: 0; }
.pw-bubble a { color: inherit; }
.pw-bubble pre { overflow-x: auto; background: rgba(0,0,0,.06); padding: 8px; border-radius: 6px; }
.pw-bubble blockquote { margin: .4em 0 .6em; padding-inline-start: .75em; border-inline-start: 3px solid var(--pw-color); }
.pw-bubble ul, .pw-bubble ol { margin: .3em 0 .5em; padding-inline-start: 1.3em; }
.pw-bubble img, .pw-media img, .pw-media video { max-width: 100%; border-radius: calc(var(--pw-radius) * .6); display: block; }
.pw-media audio { max-width: 100%; }
.pw-actions { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.pw-choice {
  border: 1px solid var(--pw-color-text); color: var(--pw-color-text); background: var(--pw-bg);
  border-radius: 999px; padding: 6px 12px; font: inherit; font-size: 14px; cursor: pointer;
}
.pw-choice:hover { background: color-mix(in srgb, var(--pw-color) 12%, var(--pw-bg)); }
.pw-suggestions {
  display: flex; flex-direction: column; align-items: flex-end; gap: 6px; margin: 2px 0 0; padding: 0;
  list-style: none; align-self: stretch;
}
.pw-suggestions li { max-width: 85%; }
.pw-suggestion {
  border: 1px solid var(--pw-color-text); color: var(--pw-color-text); background: var(--pw-bg);
  border-radius: calc(var(--pw-radius) * .9); padding: 8px 13px; min-height: 40px; font: inherit; font-size: 14px;
  text-align: start; overflow-wrap: anywhere; cursor: pointer;
}
.pw-suggestion:hover { background: color-mix(in srgb, var(--pw-color) 12%, var(--pw-bg)); }
.pw-suggestion:disabled { opacity: .6; cursor: default; }
.pw-agent { display: flex; align-items: center; gap: 6px; font-size: 12px; font-weight: 600; opacity: .75; margin: 0 0 2px 4px; }
.pw-initials {
  width: 22px; height: 22px; border-radius: 50%; flex: none; display: flex; align-items: center; justify-content: center;
  background: var(--pw-fill); color: var(--pw-on-color); font-size: 10px; letter-spacing: .02em;
}
.pw-handoff {
  align-self: center; margin: 4px 0 0; border: 1px solid var(--pw-color-text); color: var(--pw-color-text);
  background: var(--pw-bg); border-radius: 999px; padding: 5px 12px; font: inherit; font-size: 13px; cursor: pointer;
}
.pw-handoff:disabled { opacity: .6; cursor: default; }
.pw-card { border: 1px solid var(--pw-border); border-radius: calc(var(--pw-radius) * .8); overflow: hidden; background: var(--pw-bg); min-width: 220px; max-width: 280px; }
.pw-card img { width: 100%; height: 140px; object-fit: cover; display: block; }
.pw-card-body { padding: 10px 12px; }
.pw-card-body h3 { margin: 0; font-size: 15px; } .pw-card-body p { margin: 4px 0 0; font-size: 13px; color: var(--pw-muted); }
.pw-carousel { display: flex; gap: 8px; overflow-x: auto; max-width: 100%; padding-bottom: 4px; }
.pw-feedback { display: flex; gap: 4px; margin-top: 2px; }
.pw-feedback button { border: 0; background: transparent; cursor: pointer; color: var(--pw-muted); padding: 4px; border-radius: 6px; font-size: 15px; }
.pw-feedback button[aria-pressed='true'] { color: var(--pw-color-text); background: var(--pw-surface); }
.pw-typing { align-self: flex-start; display: flex; gap: 4px; padding: 12px 14px; background: var(--pw-surface); border-radius: calc(var(--pw-radius) * .9); }
.pw-typing span { width: 7px; height: 7px; border-radius: 50%; background: var(--pw-muted); animation: pw-blink 1.2s infinite ease-in-out; }
.pw-typing span:nth-child(2) { animation-delay: .2s; } .pw-typing span:nth-child(3) { animation-delay: .4s; }
@keyframes pw-blink { 0%, 80%, 100% { opacity: .3; } 40% { opacity: 1; } }
@media (prefers-reduced-motion: reduce) { .pw-typing span { animation: none; } }
.pw-notice { margin: 0 16px 8px; padding: 8px 12px; border-radius: 8px; background: #fdecea; color: #8a1c12; font-size: 13px; }
.pw-composer { display: flex; gap: 8px; align-items: flex-end; padding: 10px 12px; border-top: 1px solid var(--pw-border); }
.pw-composer textarea {
  flex: 1; resize: none; min-height: 42px; max-height: 140px; padding: 10px 12px; font: inherit;
  font-size: 16px; color: var(--pw-fg); background: var(--pw-surface); border: 1px solid var(--pw-border);
  border-radius: calc(var(--pw-radius) * .7);
}
.pw-composer select { font-size: 16px; }
.pw-send { background: var(--pw-fill); color: var(--pw-on-color); }
.pw-send:disabled { opacity: .5; cursor: default; }
.pw-file { position: relative; }
.pw-file input { position: absolute; inset: 0; opacity: 0; cursor: pointer; width: 100%; }
.pw-footer { padding: 6px 12px 10px; text-align: center; font-size: 12px; color: var(--pw-muted); }
.pw-footer p { margin: 0; } .pw-footer a { color: inherit; }
.pw-flip { transform: scaleY(-1); }
.pw-root[dir='rtl'] .pw-send svg { transform: scaleX(-1); }
.pw-bubble svg { vertical-align: -3px; margin-inline-end: 4px; }
.pw-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
details.pw-debug { font-size: 12px; color: var(--pw-muted); } details.pw-debug pre { white-space: pre-wrap; max-height: 200px; overflow: auto; }
.pw-new {
  position: absolute; bottom: 10px; left: 50%; transform: translateX(-50%); z-index: 1;
  border: 0; border-radius: 999px; padding: 6px 14px; font: inherit; font-size: 13px; cursor: pointer;
  background: var(--pw-fill); color: var(--pw-on-color); box-shadow: 0 2px 10px rgba(0,0,0,.2);
}
.pw-upload { display: flex; align-items: center; gap: 8px; margin: 0 16px 8px; font-size: 13px; color: var(--pw-muted); }
.pw-upload span { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.pw-upload progress { width: 40%; accent-color: var(--pw-fill); }
.pw-comment { display: flex; flex-direction: column; gap: 4px; margin-top: 4px; font-size: 13px; }
.pw-comment textarea, .pw-email input {
  font: inherit; font-size: 16px; padding: 6px 8px; resize: vertical; color: var(--pw-fg);
  background: var(--pw-surface); border: 1px solid var(--pw-border); border-radius: 8px;
}
.pw-thanks { margin: 2px 0 0; font-size: 12px; color: var(--pw-muted); }
.pw-drop {
  position: absolute; inset: 0; z-index: 2; pointer-events: none; display: flex; align-items: center;
  justify-content: center; text-align: center; padding: 24px; font-weight: 600;
  background: color-mix(in srgb, var(--pw-bg) 88%, transparent); border: 3px dashed var(--pw-color-text);
  border-radius: inherit; color: var(--pw-fg);
}
`;
