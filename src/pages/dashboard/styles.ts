/**
 * GET /dashboard.css: the dashboard's own styles, on top of the brand's token variables and
 * document styles (brand.css gives the header bar and footer), so a brand swap restyles it and
 * the tokens' dark mode applies without a rule here.
 */
export const DASHBOARD_CSS = `/* Operator dashboard styles; colors, type and spacing come from the design tokens. */
:root{color-scheme:light dark}
[data-theme="light"]{color-scheme:light}
[data-theme="dark"]{color-scheme:dark}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.skip{position:absolute;left:var(--spacing-4);top:-4rem;z-index:10;padding:var(--spacing-2) var(--spacing-4);background:var(--colors-surface-page);color:var(--colors-text-link);border-radius:var(--radius-md);font:var(--type-style-label)}
.skip:focus{top:var(--spacing-2)}
:focus-visible{outline:3px solid var(--colors-border-focus);outline-offset:2px}
.dash-bar{flex-wrap:wrap}
.dash-controls{margin-left:auto;display:flex;flex-wrap:wrap;gap:var(--spacing-3);align-items:center}
.dash-controls form{margin:0}
.dash{max-width:80rem;margin:0 auto;padding:var(--spacing-6) var(--spacing-6) var(--spacing-16)}
.dash:focus{outline:none}
.dash h1{font:var(--type-style-h1);color:var(--colors-brand-primary);margin:var(--spacing-2) 0 var(--spacing-6)}
.dash h2{font:var(--type-style-h3);color:var(--colors-brand-primary);margin:0 0 var(--spacing-4)}
.dash a:not(.button){color:var(--colors-text-link)}
.dash code{font:var(--type-style-code)}
.dash-foot{max-width:80rem}
.grid{display:grid;gap:var(--spacing-6);grid-template-columns:minmax(0,1fr)}
.grid>.wide{grid-column:1/-1}
/* Wide screens: account and webhooks stacked beside the recordings, then the full-width sections. */
@media (min-width:64rem){.grid{grid-template-columns:minmax(0,2fr) minmax(0,3fr)}.grid>.tall{grid-row:span 2}}
@media (max-width:40rem){.dash{padding:var(--spacing-4) var(--spacing-3) var(--spacing-12)}.card{padding:var(--spacing-4)}.dash h1{font-size:var(--type-size-3xl)}}
.card{min-width:0;background:var(--colors-surface-raised);border:1px solid var(--colors-border-default);border-radius:var(--radius-lg);padding:var(--spacing-6);box-shadow:var(--shadows-sm)}
.login{max-width:28rem;margin:var(--spacing-12) auto}
.stack{display:flex;flex-direction:column;gap:var(--spacing-3)}
.muted{color:var(--colors-text-muted)}
.missing{color:var(--colors-status-warning)}
.note{margin:0 0 var(--spacing-4);padding:var(--spacing-3) var(--spacing-4);background:var(--colors-surface-sunken);border-radius:var(--radius-md)}
.notice{margin:0 0 var(--spacing-4);padding:var(--spacing-3) var(--spacing-4);background:var(--colors-surface-page);border:1px solid var(--colors-border-default);border-left:4px solid;border-radius:var(--radius-md)}
.notice-ok{border-left-color:var(--colors-status-success)}
.notice-error{border-left-color:var(--colors-status-danger)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:var(--spacing-2) var(--spacing-4);margin:0 0 var(--spacing-4)}
.facts div{display:contents}
.facts dt{font:var(--type-style-label);color:var(--colors-text-muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.actions{display:flex;flex-wrap:wrap;gap:var(--spacing-3);align-items:center}
.actions form,.inline{margin:0}
.inline{display:flex;flex-wrap:wrap;gap:var(--spacing-2);align-items:center}
/* A row's funnel form and delete link, side by side while they fit. */
.row-actions{display:flex;flex-wrap:wrap;gap:var(--spacing-2);align-items:center}
.confirm{max-width:36rem}
.button{display:inline-flex;align-items:center;min-height:2.5rem;padding:var(--spacing-2) var(--spacing-4);font:var(--type-style-label);color:var(--colors-text-default);background:var(--colors-surface-page);border:1px solid var(--colors-text-muted);border-radius:var(--radius-md);text-decoration:none;cursor:pointer}
.button:hover{border-color:var(--colors-text-default)}
.button.primary{color:var(--colors-text-inverse);background:var(--colors-brand-primary);border-color:var(--colors-brand-primary)}
.button.danger{color:var(--colors-status-danger);border-color:var(--colors-status-danger)}
.button.small{min-height:2rem;padding:var(--spacing-1) var(--spacing-3)}
.button.on-bar,.theme-toggle{min-height:2.25rem;padding:var(--spacing-1) var(--spacing-3);font:var(--type-style-label);color:var(--colors-palette-slate-0);background:transparent;border:1px solid var(--colors-palette-slate-400);border-radius:var(--radius-md);cursor:pointer}
label{font:var(--type-style-label)}
input,select{max-width:100%;min-height:2.5rem;padding:var(--spacing-2) var(--spacing-3);font:var(--type-style-body);color:var(--colors-text-default);background:var(--colors-surface-page);border:1px solid var(--colors-text-muted);border-radius:var(--radius-md)}
input[type="checkbox"]{width:1.25rem;height:1.25rem;min-height:0;margin:0;accent-color:var(--colors-brand-primary)}
fieldset{margin:0 0 var(--spacing-6);padding:var(--spacing-4);border:1px solid var(--colors-border-default);border-radius:var(--radius-md)}
legend{padding:0 var(--spacing-2);font:var(--type-style-label)}
.fields{display:grid;gap:var(--spacing-4);grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));margin-bottom:var(--spacing-4)}
.field{display:flex;flex-direction:column;gap:var(--spacing-1);margin:0}
.field.wide{grid-column:1/-1}
.field.check{flex-direction:row;align-items:center;gap:var(--spacing-2);align-self:end;min-height:2.5rem}
table{width:100%;border-collapse:collapse;font:var(--type-style-small)}
th,td{padding:var(--spacing-2) var(--spacing-3);border-bottom:1px solid var(--colors-border-default);text-align:left;vertical-align:top}
time{white-space:nowrap}
thead th{font:var(--type-style-label);color:var(--colors-text-muted)}
tbody th{font-weight:var(--type-weight-semibold)}
.scroll{overflow-x:auto}
.badge{display:inline-block;padding:0 var(--spacing-2);font:var(--type-style-label);border:1px solid currentColor;border-radius:var(--radius-pill);white-space:nowrap}
.badge-ok{color:var(--colors-status-success)}
.badge-warn{color:var(--colors-status-warning)}
.badge-bad{color:var(--colors-status-danger)}
.badge-info{color:var(--colors-status-info)}
.badge-muted{color:var(--colors-text-muted)}
.chip{display:inline-block;padding:0 var(--spacing-2);font:var(--type-style-label);border:2px solid var(--theme-color,var(--colors-border-strong));border-radius:var(--radius-pill);white-space:nowrap}
.chip-filled{color:var(--theme-on-color);background:var(--theme-color)}
.plain{margin:0;padding:0;list-style:none}
.deliveries li{padding:var(--spacing-1) 0;border-bottom:1px solid var(--colors-border-default)}
.group{padding:var(--spacing-2) 0;border-top:1px solid var(--colors-border-default)}
.group summary{cursor:pointer;padding:var(--spacing-1) 0}
.group-name{font-weight:var(--type-weight-semibold)}
.group table{margin:var(--spacing-2) 0}
.dash h3{font:var(--type-style-label);margin:var(--spacing-4) 0 var(--spacing-2)}
.quotas{margin:0 0 var(--spacing-4)}
/* A spent quota's row is marked by its words ("exhausted") first; the bar and weight only add to them. */
.quotas tr.exhausted>th{box-shadow:inset 4px 0 0 var(--colors-status-danger);font-weight:var(--type-weight-bold)}
`;
