/** Main -> renderer: the native menu asks for a view. */
export const MENU_NAVIGATE = 'menu:navigate';
