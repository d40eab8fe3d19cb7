/** Style sheets imported for their effect: Vite bundles them into CSS files. */
declare module '*.css';
